/**
 * The environment that turns every rate limit off (0 = no limit), for the services a bench starts:
 * the figures measure the service, not its 429s.
 */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_PER_IP: '0',
  RATE_LIMIT_READS_PER_IP: '0',
  RATE_LIMIT_PER_USER: '0',
  RATE_LIMIT_READS_PER_USER: '0',
} as const
