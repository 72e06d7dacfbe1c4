/**
 * The edge's and the worker's runtime settings, for every way they are started: npm start
 * (deploy/start-all.ts), the npm scripts, the image and its manifests (deploy/Dockerfile,
 * compose.yaml, k8s/edge.yaml and k8s/worker.yaml spell the same values), and the benches.
 *
 * BUN_JSC_forceRAMSize: JavaScriptCore lets its heap grow in proportion to the machine's memory,
 * so on a 24 GB machine an edge under load let garbage pile up to 150-160 MB of heap between
 * collections (and the runtime keeps pages it once used). Sized as for 256 MB, it collects sooner:
 * the bench's long-tail, mixed and cached scenarios peaked at 300-376 MB resident without this and
 * at 218-242 MB with it (320 MB: 221-286), with throughput within the bench's run-to-run noise.
 */
export const EDGE_HEAP_RAM_BYTES = 256 * 1024 * 1024;
export const EDGE_RUNTIME_ENV: Record<string, string> = { BUN_JSC_forceRAMSize: String(EDGE_HEAP_RAM_BYTES) };

/**
 * The worker's, for the same reason: in the re-crawl bench (1,000 listings, concurrency 16) it
 * peaked at 1,386-1,674 MB resident without this, over the 1 GiB its compose and Kubernetes limits
 * give it; sized as for 512 MB, 728-744 MB at 687-768 listings a minute (756-787 without; as for
 * 256 MB, 652-681 MB but 657-673 a minute).
 */
export const WORKER_HEAP_RAM_BYTES = 512 * 1024 * 1024;
export const WORKER_RUNTIME_ENV: Record<string, string> = { BUN_JSC_forceRAMSize: String(WORKER_HEAP_RAM_BYTES) };
