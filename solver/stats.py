"""Win-rate statistics: 95% Wilson intervals in which `unknown` deals widen the interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class WinRate:
    won: int
    lost: int
    unknown: int

    @property
    def deals(self) -> int:
        return self.won + self.lost + self.unknown

    @property
    def rate(self) -> float:
        """Won among decided deals (NaN before any is decided)."""
        decided = self.won + self.lost
        return self.won / decided if decided else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson bounds, unknowns counted as lost for the lower and as won for the upper."""
        low, _ = wilson_interval(self.won, self.deals)
        _, high = wilson_interval(self.won + self.unknown, self.deals)
        return low, high

    def text(self) -> str:
        low, high = self.interval
        digits = self.digits()
        rate = "n/a" if math.isnan(self.rate) else f"{100 * self.rate:.{digits}f}%"
        return (
            f"{self.deals} deals: {self.won} won, {self.lost} lost, {self.unknown} unknown; "
            f"win rate {rate}, 95% interval [{100 * low:.{digits}f}%, {100 * high:.{digits}f}%]"
        )

    def digits(self) -> int:
        """Decimals of a percentage worth printing: 2 up to 99,999 deals, one more for each tenfold
        (the interval narrows about threefold): a million deals' 99.8592% [99.8517%, 99.8664%]."""
        return 2 + max(0, len(str(self.deals)) - 5)
