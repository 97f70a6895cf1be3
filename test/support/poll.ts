/** Polls until `check` returns a value, or fails after the deadline. Never a fixed sleep. */
export async function pollUntil<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
