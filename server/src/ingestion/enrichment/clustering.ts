/**
 * RAPTOR's clustering, computable in-process and deterministic for a given seed.
 *
 * RAGFlow reduces the embeddings with UMAP (cosine metric, min(12, n − 2) components), chooses the number
 * of clusters as the Gaussian mixture with the lowest BIC, and lets a chunk join every cluster it belongs
 * to with a probability above the threshold. UMAP is a stochastic graph layout with no small, exact
 * implementation here; in its place the unit-normalised embeddings (cosine geometry) are projected on their
 * principal components (PCA by subspace iteration: a few passes over the vectors, fine for thousands of
 * chunks of 3072 dimensions). PCA keeps the directions along which chunks differ most, which is where
 * topics separate; unlike UMAP it does not pull clusters apart, so the mixture is kept simple enough for
 * BIC to judge honestly with few points:
 * - spherical components (one variance each: k·d + 2k − 1 parameters), because full covariances in 12
 *   dimensions cost 78 parameters a component and BIC would never allow a second one for a short document;
 * - a variance floor at a tenth of the points' mean variance per dimension, because a component fitted to
 *   a single point otherwise shrinks to nothing, its likelihood grows without bound, and BIC would give
 *   every chunk a cluster of its own.
 */

/** mulberry32: a small seeded generator, so that the same `random_seed` gives the same clusters. */
export function seededRandom(seed: number): () => number {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** RAGFlow's UMAP target dimension. */
export function reducedDimension(points: number): number {
  return Math.max(1, Math.min(12, points - 2));
}

const PCA_ITERATIONS = 8;
const VARIANCE_FLOOR_SHARE = 0.1;
const EM_ITERATIONS = 100;
const KMEANS_ITERATIONS = 10;
/** Stop trying more components after this many in a row fail to beat the best BIC: the curve does not come back down. */
const BIC_PATIENCE = 8;

export interface Projection {
  /** One row per vector; coordinates ordered by the variance along them, largest first. */
  points: Float64Array[];
  /** The variance along each coordinate. */
  variances: number[];
  /** The variance of the normalised vectors in all directions together. */
  totalVariance: number;
}

/**
 * Lets the server's other work run between two passes of a long computation: clustering the chunks of a large
 * document takes seconds, and the thread it runs on also answers every request.
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows handled between two breaths: a few milliseconds of work. */
const ROWS_PER_BREATH = 256;

/** The vectors, unit-normalised and centred, projected on their `dimension` principal directions. */
export async function projectPrincipal(vectors: number[][], dimension: number, random: () => number): Promise<Projection> {
  const n = vectors.length;
  const width = vectors[0]?.length ?? 0;
  const rows = vectors.map((v) => {
    const row = Float64Array.from(v);
    let norm = 0;
    for (let j = 0; j < width; j++) norm += row[j] * row[j];
    if (norm > 0) for (let j = 0; j < width; j++) row[j] /= Math.sqrt(norm);
    return row;
  });
  const mean = new Float64Array(width);
  for (const row of rows) for (let j = 0; j < width; j++) mean[j] += row[j] / n;
  let totalVariance = 0;
  for (const row of rows) for (let j = 0; j < width; j++) totalVariance += (row[j] -= mean[j]) ** 2 / n;

  const k = Math.min(dimension, width, n);
  // basis[c] is a direction in embedding space; subspace iteration: basis ← orthonormal(Xᵀ X basis).
  let basis = Array.from({ length: k }, () => Float64Array.from({ length: width }, () => random() - 0.5));
  orthonormalise(basis);
  const project = async (b: Float64Array[]) => {
    const projected: Float64Array[] = [];
    for (const row of rows) {
      const out = new Float64Array(b.length);
      for (let c = 0; c < b.length; c++) {
        let s = 0;
        const direction = b[c];
        for (let j = 0; j < width; j++) s += row[j] * direction[j];
        out[c] = s;
      }
      projected.push(out);
      if (projected.length % ROWS_PER_BREATH === 0) await breathe();
    }
    return projected;
  };
  for (let iteration = 0; iteration < PCA_ITERATIONS; iteration++) {
    const projected = await project(basis);
    const next = Array.from({ length: k }, () => new Float64Array(width));
    for (const [i, row] of rows.entries()) {
      for (let c = 0; c < k; c++) {
        const weight = projected[i][c];
        if (weight === 0) continue;
        const direction = next[c];
        for (let j = 0; j < width; j++) direction[j] += weight * row[j];
      }
      if (i % ROWS_PER_BREATH === 0) await breathe();
    }
    orthonormalise(next);
    basis = next;
    await breathe();
  }
  const projected = await project(basis);
  const variances = basis.map((_, c) => projected.reduce((s, p) => s + p[c] * p[c], 0) / n);
  const order = variances.map((_, c) => c).sort((a, b) => variances[b] - variances[a] || a - b);
  return { points: projected.map((p) => Float64Array.from(order, (c) => p[c])), variances: order.map((c) => variances[c]), totalVariance };
}

/** Modified Gram–Schmidt; a vector with nothing left (no variance in that direction) becomes zero. */
function orthonormalise(vectors: Float64Array[]): void {
  for (let c = 0; c < vectors.length; c++) {
    const v = vectors[c];
    for (let p = 0; p < c; p++) {
      const u = vectors[p];
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += v[j] * u[j];
      for (let j = 0; j < v.length; j++) v[j] -= dot * u[j];
    }
    let norm = 0;
    for (let j = 0; j < v.length; j++) norm += v[j] * v[j];
    norm = Math.sqrt(norm);
    if (norm < 1e-12) v.fill(0);
    else for (let j = 0; j < v.length; j++) v[j] /= norm;
  }
}

function squaredDistance(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += (a[j] - b[j]) ** 2;
  return s;
}

export interface Mixture {
  components: number;
  /** n × components membership probabilities. */
  probabilities: number[][];
  bic: number;
}

/** k-means++ seeding, then a few Lloyd iterations: the starting point of EM (as scikit-learn starts it). */
async function kMeans(points: Float64Array[], k: number, random: () => number): Promise<number[]> {
  const n = points.length;
  const centres = [points[Math.floor(random() * n)]];
  const nearest = points.map((p) => squaredDistance(p, centres[0]));
  while (centres.length < k) {
    const total = nearest.reduce((a, b) => a + b, 0);
    let pick = n - 1;
    if (total > 0) {
      let r = random() * total;
      for (let i = 0; i < n; i++) {
        r -= nearest[i];
        if (r <= 0) {
          pick = i;
          break;
        }
      }
    } else pick = Math.floor(random() * n);
    centres.push(points[pick]);
    points.forEach((p, i) => (nearest[i] = Math.min(nearest[i], squaredDistance(p, points[pick]))));
    if (centres.length % 8 === 0) await breathe();
  }
  let labels = points.map(() => 0);
  let current = centres.map((c) => Float64Array.from(c));
  for (let iteration = 0; iteration < KMEANS_ITERATIONS; iteration++) {
    const next = points.map((p) => {
      let best = 0;
      for (let c = 1; c < k; c++) if (squaredDistance(p, current[c]) < squaredDistance(p, current[best])) best = c;
      return best;
    });
    const changed = next.some((label, i) => label !== labels[i]);
    labels = next;
    const sums = current.map((c) => new Float64Array(c.length));
    const counts = new Array<number>(k).fill(0);
    points.forEach((p, i) => {
      counts[labels[i]]++;
      for (let j = 0; j < p.length; j++) sums[labels[i]][j] += p[j];
    });
    current = sums.map((sum, c) => (counts[c] > 0 ? sum.map((x) => x / counts[c]) : current[c]));
    if (!changed && iteration > 0) break;
    await breathe();
  }
  return labels;
}

/** A spherical Gaussian mixture of `k` components fitted by EM, with its BIC. */
export async function fitMixture(points: Float64Array[], k: number, random: () => number, varianceFloor: number): Promise<Mixture> {
  const n = points.length;
  const d = points[0].length;
  const labels = await kMeans(points, k, random);
  let responsibilities: number[][] = points.map((_, i) => Array.from({ length: k }, (_, c) => (labels[i] === c ? 1 : 0)));
  let logLikelihood = -Infinity;
  for (let iteration = 0; iteration < EM_ITERATIONS; iteration++) {
    // M step.
    const weights = new Array<number>(k).fill(0);
    const means = Array.from({ length: k }, () => new Float64Array(d));
    responsibilities.forEach((r, i) => {
      for (let c = 0; c < k; c++) {
        if (r[c] === 0) continue;
        weights[c] += r[c];
        for (let j = 0; j < d; j++) means[c][j] += r[c] * points[i][j];
      }
    });
    for (let c = 0; c < k; c++) if (weights[c] > 0) for (let j = 0; j < d; j++) means[c][j] /= weights[c];
    const variances = new Array<number>(k).fill(0);
    responsibilities.forEach((r, i) => {
      for (let c = 0; c < k; c++) if (r[c] > 0) variances[c] += r[c] * squaredDistance(points[i], means[c]);
    });
    for (let c = 0; c < k; c++) variances[c] = Math.max(varianceFloor, weights[c] > 0 ? variances[c] / (d * weights[c]) : varianceFloor);
    // E step.
    let total = 0;
    responsibilities = points.map((p) => {
      const logs = means.map((mean, c) =>
        weights[c] > 0 ? Math.log(weights[c] / n) - (d / 2) * Math.log(2 * Math.PI * variances[c]) - squaredDistance(p, mean) / (2 * variances[c]) : -Infinity,
      );
      const top = Math.max(...logs);
      const sum = logs.reduce((s, l) => s + Math.exp(l - top), 0);
      total += top + Math.log(sum);
      return logs.map((l) => Math.exp(l - top) / sum);
    });
    const improved = total - logLikelihood;
    logLikelihood = total;
    if (improved < 1e-3 * n) break;
    await breathe();
  }
  const parameters = k * d + k + (k - 1);
  return { components: k, probabilities: responsibilities, bic: -2 * logLikelihood + parameters * Math.log(n) };
}

/**
 * The mixture with the lowest BIC among 1 … `maxComponents` components (RAGFlow's `_get_optimal_clusters`),
 * on points already reduced. `signal` is checked between fits.
 */
export async function bestMixture(points: Float64Array[], maxComponents: number, seed: number, signal: AbortSignal): Promise<Mixture> {
  const d = points[0].length;
  const mean = new Float64Array(d);
  for (const p of points) for (let j = 0; j < d; j++) mean[j] += p[j] / points.length;
  const spread = points.reduce((s, p) => s + squaredDistance(p, mean), 0) / (points.length * d);
  const floor = Math.max(VARIANCE_FLOOR_SHARE * spread, 1e-12);
  let best: Mixture | undefined;
  let sinceBest = 0;
  for (let k = 1; k <= Math.max(1, maxComponents); k++) {
    signal.throwIfAborted();
    const mixture = await fitMixture(points, k, seededRandom(seed * 1031 + k), floor);
    if (!best || mixture.bic < best.bic) {
      best = mixture;
      sinceBest = 0;
    } else if (++sinceBest >= BIC_PATIENCE) break;
  }
  return best!;
}

/**
 * Clusters of `vectors` (each a list of indexes into `vectors`), never more than `maxClusters`: a vector
 * joins every cluster it belongs to with probability above `threshold`, and its likeliest one when none
 * reaches it, so that no chunk is left out. Empty clusters are dropped.
 */
export async function clusterVectors(
  vectors: number[][],
  options: { maxClusters: number; threshold: number; seed: number; signal: AbortSignal },
): Promise<number[][]> {
  const n = vectors.length;
  if (n <= 2) return [vectors.map((_, i) => i)];
  const projection = await projectPrincipal(vectors, reducedDimension(n), seededRandom(options.seed));
  // Kaiser's rule: keep the directions holding more than an average direction's share of the variance. The
  // rest is noise that, spread evenly over all components, only hides the separation BIC has to see.
  const average = projection.totalVariance / Math.min(n - 1, vectors[0].length);
  const kept = Math.max(Math.min(2, projection.variances.length), projection.variances.filter((v) => v >= average).length);
  const points = projection.points.map((p) => p.subarray(0, kept));
  // More components than points − 1 would only split off single chunks.
  const mixture = await bestMixture(points, Math.min(options.maxClusters, n - 1), options.seed, options.signal);
  if (mixture.components === 1) return [vectors.map((_, i) => i)];
  const clusters: number[][] = Array.from({ length: mixture.components }, () => []);
  mixture.probabilities.forEach((probabilities, i) => {
    let joined = false;
    probabilities.forEach((p, c) => {
      if (p > options.threshold) {
        clusters[c].push(i);
        joined = true;
      }
    });
    if (!joined) clusters[probabilities.indexOf(Math.max(...probabilities))].push(i);
  });
  // With a low threshold, every chunk may join every cluster: clusters with the same members are one.
  const distinct = new Map(clusters.filter((c) => c.length > 0).map((c) => [c.join(","), c]));
  return [...distinct.values()];
}
