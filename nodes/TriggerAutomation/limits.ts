/**
 * The node's limits, shared by its execution and by what the editor says of them (description.ts):
 * one home each, so that the help the user reads is the limit the node keeps.
 */

/**
 * Sending → Adaptive: requests at once to one service from one n8n process. It bounds what a first
 * burst sends before the first 429 is read, and lets one execution of 200 items go at once, as the
 * HTTP Request node does (docs/sending.md, Every tunable).
 */
export const MAX_IN_FLIGHT = 256;

/**
 * The most Retries When Not Accepted: over an hour of turn-aways at Retry-After: 1. Above it the
 * node says so; the editor's field has no maximum, so it never cuts a typed number silently.
 */
export const MAX_RETRIES = 5000;

/**
 * The longest wait the node keeps an item for. A longer Retry-After (or a quota spent that resets
 * later) fails the item, and under Adaptive every item not yet sent to that service until it ends
 * (sending/resendPolicy.ts, `tooLongToWait`).
 */
export const MAX_WAIT_MS = 60_000;
