// How long the event loop went without running a 5 ms timer while `fn` ran, in milliseconds:
// what a request arriving meanwhile would have waited. The last stretch counts too, so work that
// never yields is measured whole.
export async function longestHold(fn: () => Promise<unknown>): Promise<number> {
  let last = performance.now()
  let longest = 0
  const tick = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 5)
  try {
    await new Promise((resolve) => setTimeout(resolve, 20))
    await fn()
    await new Promise((resolve) => setTimeout(resolve, 20))
  } finally {
    clearInterval(tick)
    longest = Math.max(longest, performance.now() - last)
  }
  return longest
}
