// Eigenvalues and eigenvectors of a real symmetric matrix, and the Moore-Penrose pseudo-inverse
// built from them. Householder reduction to tridiagonal form, then the implicit QL method with
// shifts (the EISPACK routines tred2 and tql2, in the form JAMA's EigenvalueDecomposition gives
// them). The conditioned ground-motion fields need the pseudo-inverse where OpenQuake calls
// numpy.linalg.pinv: a station covariance is singular when two stations share a place. Pure.

/** A symmetric matrix's eigenvalues (ascending is not promised) and eigenvectors, row k the k-th vector (n x n, row-major). */
export interface SymmetricEigen {
  readonly values: Float64Array;
  readonly vectors: Float64Array;
}

/**
 * Householder reduction of V (n x n, symmetric on entry) to tridiagonal: diagonal d, off-diagonal e.
 * Written on the transpose of tred2's array (V[j][k] here is tred2's V[k][j]), so the inner loops
 * read contiguous rows and V leaves holding the transformation's columns as its rows.
 */
function tridiagonalize(V: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  for (let j = 0; j < n; j++) d[j] = V[j * n + n - 1]!;
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) {
        d[j] = V[j * n + i - 1]!;
        V[j * n + i] = 0;
        V[i * n + j] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) { d[k] = d[k]! / scale; h += d[k]! * d[k]!; }
      let f = d[i - 1]!;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        V[i * n + j] = f;
        g = e[j]! + V[j * n + j]! * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += V[j * n + k]! * d[k]!;
          e[k] = e[k]! + V[j * n + k]! * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) { e[j] = e[j]! / h; f += e[j]! * d[j]!; }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] = e[j]! - hh * d[j]!;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        g = e[j]!;
        for (let k = j; k <= i - 1; k++) V[j * n + k] = V[j * n + k]! - (f * e[k]! + g * d[k]!);
        d[j] = V[j * n + i - 1]!;
        V[j * n + i] = 0;
      }
    }
    d[i] = h;
  }
  // Accumulate the transformations.
  for (let i = 0; i < n - 1; i++) {
    V[i * n + n - 1] = V[i * n + i]!;
    V[i * n + i] = 1;
    const h = d[i + 1]!;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = V[(i + 1) * n + k]! / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += V[(i + 1) * n + k]! * V[j * n + k]!;
        for (let k = 0; k <= i; k++) V[j * n + k] = V[j * n + k]! - g * d[k]!;
      }
    }
    for (let k = 0; k <= i; k++) V[(i + 1) * n + k] = 0;
  }
  for (let j = 0; j < n; j++) { d[j] = V[j * n + n - 1]!; V[j * n + n - 1] = 0; }
  V[(n - 1) * n + n - 1] = 1;
  e[0] = 0;
}

/** Implicit QL iterations on the tridiagonal (d, e), rotating the vectors along (W holds them as rows, so each rotation reads two contiguous rows). */
function diagonalize(W: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n && Math.abs(e[m]!) > eps * tst1) m++;
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > 60) throw new Error('symmetric eigenvalues: the QL iteration did not converge');
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i] = d[i]! - h;
        f += h;
        p = d[m]!;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1]!;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          const a = i * n;
          const b = a + n;
          for (let k = 0; k < n; k++) {
            h = W[b + k]!;
            W[b + k] = s * W[a + k]! + c * h;
            W[a + k] = c * W[a + k]! - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > eps * tst1);
    }
    d[l] = d[l]! + f;
    e[l] = 0;
  }
}

/** Eigen-decomposition of a symmetric n x n matrix (row-major; only its values are read, it is not changed). */
export function symmetricEigen(matrix: Float64Array, n: number): SymmetricEigen {
  const V = Float64Array.from(matrix.subarray(0, n * n));
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n <= 1) return n === 0 ? { values: d, vectors: V } : { values: Float64Array.of(matrix[0]!), vectors: Float64Array.of(1) };
  tridiagonalize(V, n, d, e);
  diagonalize(V, n, d, e);
  return { values: d, vectors: V };
}

/** numpy.linalg.pinv's default cut: singular values at most 1e-15 times the largest are taken as zero. */
export const PINV_RCOND = 1e-15;

/**
 * The Moore-Penrose pseudo-inverse of a symmetric matrix: V diag(1/lambda) V' over the eigenvalues
 * whose magnitude exceeds rcond times the largest (numpy.linalg.pinv's rule, singular values being
 * the eigenvalues' magnitudes for a symmetric matrix).
 */
export function symmetricPseudoInverse(matrix: Float64Array, n: number, rcond = PINV_RCOND): Float64Array {
  const { values, vectors } = symmetricEigen(matrix, n);
  let largest = 0;
  for (const v of values) largest = Math.max(largest, Math.abs(v));
  const cut = rcond * largest;
  const out = new Float64Array(n * n);
  const kept: number[] = [];
  values.forEach((v, k) => { if (Math.abs(v) > cut) kept.push(k); });
  // out = sum over the kept k of v_k v_k' / lambda_k, one rank-one update per vector.
  for (const k of kept) {
    const v = vectors.subarray(k * n, (k + 1) * n);
    const w = 1 / values[k]!;
    for (let i = 0; i < n; i++) {
      const vi = v[i]! * w;
      const row = i * n;
      for (let j = 0; j <= i; j++) out[row + j] = out[row + j]! + vi * v[j]!;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) out[j * n + i] = out[i * n + j]!;
  return out;
}

/**
 * The pseudo-inverse of a symmetric positive semi-definite matrix (a covariance), by its Cholesky
 * factor when every pivot stands clear of rounding (then the matrix is invertible and its
 * pseudo-inverse is its inverse, at a tenth of the eigen-decomposition's cost), else by
 * symmetricPseudoInverse. "Clear": each pivot above 1e-10 times the largest diagonal entry, far above
 * the 1e-15 the eigenvalue cut keeps.
 */
export function covariancePseudoInverse(matrix: Float64Array, n: number): Float64Array {
  const L = new Float64Array(n * n);
  let largest = 0;
  for (let i = 0; i < n; i++) largest = Math.max(largest, matrix[i * n + i]!);
  const floor = 1e-10 * largest;
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = matrix[rj + j]!;
    for (let k = 0; k < j; k++) d -= L[rj + k]! ** 2;
    if (!(d > floor)) return symmetricPseudoInverse(matrix, n);
    const pivot = Math.sqrt(d);
    L[rj + j] = pivot;
    for (let i = j + 1; i < n; i++) {
      const ri = i * n;
      let s = matrix[ri + j]!;
      for (let k = 0; k < j; k++) s -= L[ri + k]! * L[rj + k]!;
      L[ri + j] = s / pivot;
    }
  }
  // Column c of X = L^-1 by forward substitution, kept as row c of XT (contiguous); then the
  // inverse is X' X, whose (i, j) entry is the dot product of rows i and j of XT.
  const XT = new Float64Array(n * n);
  const x = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    x.fill(0, 0, c);
    x[c] = 1 / L[c * n + c]!;
    for (let i = c + 1; i < n; i++) {
      const ri = i * n;
      let s = 0;
      for (let k = c; k < i; k++) s += L[ri + k]! * x[k]!;
      x[i] = -s / L[ri + i]!;
    }
    XT.set(x, c * n);
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    for (let j = 0; j <= i; j++) {
      const rj = j * n;
      let s = 0;
      for (let k = i; k < n; k++) s += XT[ri + k]! * XT[rj + k]!;
      out[ri + j] = s;
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) out[j * n + i] = out[i * n + j]!;
  return out;
}
