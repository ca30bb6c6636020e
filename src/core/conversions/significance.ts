/**
 * Two-sided p-value of a two-proportion z-test (pooled): how likely a difference at least this
 * large between converted/clicks of a variant and of the first one, were their rates equal.
 * Null when either has no clicks or nothing varies (no conversions, or all converted).
 */
export function twoProportionPValue(
  converted: number,
  clicks: number,
  baseConverted: number,
  baseClicks: number,
): number | null {
  if (clicks <= 0 || baseClicks <= 0) return null;
  const pooled = (converted + baseConverted) / (clicks + baseClicks);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / clicks + 1 / baseClicks));
  if (!(se > 0)) return null;
  const z = (converted / clicks - baseConverted / baseClicks) / se;
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

/**
 * The complementary error function, by the Chebyshev fit of Numerical Recipes (erfcc):
 * fractional error below 1.2e-7 everywhere, far finer than a p-value is read.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
