// Growth exponents for the complexity benchmark: how time grows with input size, fitted as the
// least-squares slope of log(time) on log(size). 1 is linear, 2 quadratic, 0 constant.

/** Least-squares slope of log(y) on log(x) over `points` ({ x, y }). */
function logLogSlope(points) {
  if (points.length < 2) throw new RangeError('a growth exponent needs two sizes at least');
  const xs = points.map((p) => Math.log(p.x));
  const ys = points.map((p) => Math.log(Math.max(p.y, 1e-9)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

/** The exponent of a pass's own time (`ms`) with size (`bytes`). */
export function growthExponent(points) {
  return logLogSlope(points.map((p) => ({ x: p.bytes, y: p.ms })));
}

/**
 * The exponent of a pass measured against a linear baseline timed beside it at each size
 * (`baselineMs`): 1 plus the slope of log(ms / baselineMs). Load that slows both alike at some
 * sizes cancels, so a busy shared machine does not read as super-linear.
 */
export function relativeGrowthExponent(points) {
  return 1 + logLogSlope(points.map((p) => ({ x: p.bytes, y: p.ms / p.baselineMs })));
}
