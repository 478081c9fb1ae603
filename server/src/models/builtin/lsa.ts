/**
 * Latent semantic analysis for the built-in lexicon: a positive-PMI co-occurrence matrix and its
 * truncated SVD by randomised subspace iteration (Halko, Martinsson & Tropp 2011). Plain typed-array
 * loops, deterministic (a seeded generator), a few seconds for WordNet's ~39k stems.
 */

/**
 * Gives the event loop a turn when the current slice of work has run ~30 ms, so that a server building
 * the lexicon on first use keeps answering requests.
 */
export class Breather {
  private last = performance.now();
  async breathe(): Promise<void> {
    if (performance.now() - this.last < 30) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}

/** How many rows a loop processes between checks of the breather. */
const ROWS_PER_CHECK = 512;

/** A sparse matrix in compressed rows. */
export interface SparseMatrix {
  rows: number;
  columns: number;
  rowStart: Int32Array;
  columnIndex: Int32Array;
  values: Float64Array;
}

/**
 * Positive PMI of items that occur in the same document, with the context-distribution smoothing of
 * Levy, Goldberg & Dagan (2015): context counts raised to 0.75, which keeps rare contexts from dominating.
 */
export function ppmiMatrix(documents: number[][], size: number): SparseMatrix {
  let pairCount = 0;
  for (const d of documents) pairCount += d.length * (d.length - 1);
  const keys = new Float64Array(pairCount);
  let at = 0;
  for (const d of documents) for (const a of d) for (const b of d) if (a !== b) keys[at++] = a * size + b;
  keys.sort();

  const uniqueKeys: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i] === keys[i - 1]) counts[counts.length - 1]++;
    else {
      uniqueKeys.push(keys[i]);
      counts.push(1);
    }
  }
  const rowSums = new Float64Array(size);
  for (let i = 0; i < uniqueKeys.length; i++) rowSums[Math.floor(uniqueKeys[i] / size)] += counts[i];
  const smoothed = rowSums.map((c) => c ** 0.75);
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0);

  const rowStart = new Int32Array(size + 1);
  const columnIndex: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < uniqueKeys.length; i++) {
    const r = Math.floor(uniqueKeys[i] / size);
    const c = uniqueKeys[i] - r * size;
    const pmi = Math.log((counts[i] * smoothedTotal) / (rowSums[r] * smoothed[c]));
    if (pmi <= 0) continue;
    rowStart[r + 1]++;
    columnIndex.push(c);
    values.push(pmi);
  }
  for (let r = 0; r < size; r++) rowStart[r + 1] += rowStart[r];
  return { rows: size, columns: size, rowStart, columnIndex: Int32Array.from(columnIndex), values: Float64Array.from(values) };
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** M·X, with X dense (m.columns × k, row-major). */
async function times(m: SparseMatrix, x: Float64Array, k: number, breather: Breather): Promise<Float64Array> {
  const out = new Float64Array(m.rows * k);
  for (let r = 0; r < m.rows; r++) {
    if (r % ROWS_PER_CHECK === 0) await breather.breathe();
    const o = r * k;
    for (let p = m.rowStart[r]; p < m.rowStart[r + 1]; p++) {
      const v = m.values[p];
      const xo = m.columnIndex[p] * k;
      for (let j = 0; j < k; j++) out[o + j] += v * x[xo + j];
    }
  }
  return out;
}

/** Mᵀ·X, with X dense (m.rows × k, row-major). */
async function transposeTimes(m: SparseMatrix, x: Float64Array, k: number, breather: Breather): Promise<Float64Array> {
  const out = new Float64Array(m.columns * k);
  for (let r = 0; r < m.rows; r++) {
    if (r % ROWS_PER_CHECK === 0) await breather.breathe();
    const xo = r * k;
    for (let p = m.rowStart[r]; p < m.rowStart[r + 1]; p++) {
      const v = m.values[p];
      const o = m.columnIndex[p] * k;
      for (let j = 0; j < k; j++) out[o + j] += v * x[xo + j];
    }
  }
  return out;
}

/** XᵀX of a dense n×k matrix (row-major). */
async function gram(x: Float64Array, n: number, k: number, breather: Breather): Promise<Float64Array> {
  const g = new Float64Array(k * k);
  for (let r = 0; r < n; r++) {
    if (r % ROWS_PER_CHECK === 0) await breather.breathe();
    const o = r * k;
    for (let i = 0; i < k; i++) {
      const xi = x[o + i];
      if (xi === 0) continue;
      const gi = i * k;
      for (let j = i; j < k; j++) g[gi + j] += xi * x[o + j];
    }
  }
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) g[i * k + j] = g[j * k + i];
  return g;
}

/**
 * Orthonormalises the columns of X in place by CholeskyQR (X ← X·R⁻¹ with XᵀX = RᵀR); calling it
 * twice in a row is CholeskyQR2 (Fukaya et al. 2014), accurate to machine precision. Row-major
 * friendly, unlike Gram–Schmidt.
 */
async function orthonormalize(x: Float64Array, n: number, k: number, breather: Breather): Promise<void> {
  const g = await gram(x, n, k, breather);
  // Lower-triangular L with G = L·Lᵀ (so R = Lᵀ); a tiny shift keeps a rank-deficient block factorable.
  const l = new Float64Array(k * k);
  const shift = 1e-12 * Math.max(...Array.from({ length: k }, (_, i) => g[i * k + i]));
  for (let j = 0; j < k; j++) {
    let d = g[j * k + j] + shift;
    for (let p = 0; p < j; p++) d -= l[j * k + p] ** 2;
    const ljj = Math.sqrt(Math.max(d, shift || 1e-300));
    l[j * k + j] = ljj;
    for (let i = j + 1; i < k; i++) {
      let s = g[i * k + j];
      for (let p = 0; p < j; p++) s -= l[i * k + p] * l[j * k + p];
      l[i * k + j] = s / ljj;
    }
  }
  // Each row y of the result solves y·Lᵀ = x_r, i.e. L·yᵀ = x_rᵀ: forward substitution.
  for (let r = 0; r < n; r++) {
    if (r % ROWS_PER_CHECK === 0) await breather.breathe();
    const o = r * k;
    for (let j = 0; j < k; j++) {
      let s = x[o + j];
      const lj = j * k;
      for (let p = 0; p < j; p++) s -= l[lj + p] * x[o + p];
      x[o + j] = s / l[lj + j];
    }
  }
}

/** Eigenvalues and eigenvectors (columns) of a small symmetric matrix, by cyclic Jacobi rotations. */
export function symmetricEigen(matrix: Float64Array, k: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diagonal = 0;
    for (let p = 0; p < k; p++) {
      diagonal += a[p * k + p] ** 2;
      for (let q = p + 1; q < k; q++) off += a[p * k + q] ** 2;
    }
    if (off <= 1e-24 * diagonal) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q];
        if (apq === 0) continue;
        const theta = (a[q * k + q] - a[p * k + p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p];
          const arq = a[r * k + q];
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r];
          const aqr = a[q * k + r];
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p];
          const vrq = v[r * k + q];
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const values = new Float64Array(k);
  for (let i = 0; i < k; i++) values[i] = a[i * k + i];
  return { values, vectors: v };
}

/**
 * The rank-k truncated SVD M ≈ U·Σ·Vᵀ, returned as the rows of U·√Σ scaled to unit length: word
 * vectors whose dot products approximate the PMI similarity of their rows (the "eigenvalue weighting
 * p = 0.5" that Levy et al. found best for similarity tasks).
 */
export async function conceptVectors(
  m: SparseMatrix,
  k: number,
  options: { oversampling?: number; powerIterations?: number; seed?: number } = {},
  breather = new Breather(),
): Promise<Float32Array> {
  const n = m.rows;
  const p = k + (options.oversampling ?? 16);
  const random = seededRandom(options.seed ?? 20240611);
  const start = new Float64Array(m.columns * p);
  for (let i = 0; i < start.length; i++) start[i] = random() * 2 - 1;
  let q = await times(m, start, p, breather);
  await orthonormalize(q, n, p, breather);
  for (let iteration = 0; iteration < (options.powerIterations ?? 1); iteration++) {
    q = await times(m, await transposeTimes(m, q, p, breather), p, breather);
    await orthonormalize(q, n, p, breather);
  }
  await orthonormalize(q, n, p, breather);
  // With B = Qᵀ·M, B·Bᵀ = WᵀW for W = Mᵀ·Q: its eigenvectors rotate Q onto the leading left singular vectors.
  const w = await transposeTimes(m, q, p, breather);
  const { values, vectors } = symmetricEigen(await gram(w, m.columns, p, breather), p);
  const order = Array.from({ length: p }, (_, i) => i)
    .sort((x, y) => values[y] - values[x] || x - y)
    .slice(0, k);
  const scale = order.map((e) => Math.sqrt(Math.sqrt(Math.max(values[e], 0))));
  const out = new Float32Array(n * k);
  const row = new Float64Array(k);
  for (let r = 0; r < n; r++) {
    if (r % ROWS_PER_CHECK === 0) await breather.breathe();
    const o = r * p;
    let norm = 0;
    for (let c = 0; c < k; c++) {
      const e = order[c];
      let sum = 0;
      for (let i = 0; i < p; i++) sum += q[o + i] * vectors[i * p + e];
      row[c] = sum * scale[c];
      norm += row[c] * row[c];
    }
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < k; c++) out[r * k + c] = row[c] / norm;
  }
  return out;
}
