/**
 * Polls `probe` every 10 ms until it returns a value (not undefined), or throws naming `what`
 * at the deadline: the tests wait for a file or an event by its content, never by a sleep.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
