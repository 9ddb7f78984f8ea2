// @ts-check
/**
 * A quota as a service tells it (dev and test code): a fixed window of `limit` requests every
 * `windowSeconds`, counted from the first request, told on every answer in one of the forms the
 * node reads (nodes/TriggerAutomation/answer/rateLimitHeaders.ts), and 429 with Retry-After beyond
 * it. The simulator's `--quota` and the quota engine tests use it. Plain JavaScript: the flags of
 * `npm run dev` and `npm start` are checked with it before anything is built (dev/demoCli.js).
 */

/** The header forms: the IETF draft (-10/-11, and -07), its earlier drafts (Kong), X-RateLimit-*. */
const QUOTA_FORMS = /** @type {const} */ ([
	'draft',
	'draft-07',
	'ratelimit',
	'x-ratelimit',
	'x-ratelimit-seconds',
]);

/**
 * @typedef {(typeof QUOTA_FORMS)[number]} QuotaForm
 * @typedef {{ limit: number; windowSeconds: number; form: QuotaForm }} QuotaSpec
 * @typedef {{ admitted: boolean; headers: Record<string, string> }} QuotaAnswer
 */

/** @type {Record<QuotaForm, string>} What each form sends, for the user who picked one. */
const QUOTA_FORM_HEADERS = {
	draft: 'RateLimit-Policy and RateLimit (IETF draft -10/-11)',
	'draft-07': 'RateLimit: limit, remaining, reset and RateLimit-Policy (IETF draft -07)',
	ratelimit: 'RateLimit-Limit, -Remaining, -Reset in seconds (earlier drafts, Kong)',
	'x-ratelimit': 'X-RateLimit-Limit, -Remaining, -Reset as seconds since 1970 (GitHub)',
	'x-ratelimit-seconds': 'X-RateLimit-Limit, -Remaining, -Reset in seconds (Envoy)',
};

/**
 * The headers that tell `remaining` of the quota until `windowEnd` (ms since 1970), in its form.
 * @param {QuotaSpec} spec
 * @param {number} remaining
 * @param {number} windowEnd
 * @param {number} now
 * @returns {Record<string, string>}
 */
function quotaHeaders({ limit, windowSeconds, form }, remaining, windowEnd, now) {
	// Rounded up: a client that waits this long finds the quota reset.
	const seconds = String(Math.max(0, Math.ceil((windowEnd - now) / 1000)));
	if (form === 'draft') {
		return {
			'RateLimit-Policy': `"default";q=${limit};w=${windowSeconds}`,
			RateLimit: `"default";r=${remaining};t=${seconds}`,
		};
	}
	if (form === 'draft-07') {
		return {
			'RateLimit-Policy': `${limit};w=${windowSeconds}`,
			RateLimit: `limit=${limit}, remaining=${remaining}, reset=${seconds}`,
		};
	}
	if (form === 'ratelimit') {
		return {
			'RateLimit-Limit': String(limit),
			'RateLimit-Remaining': String(remaining),
			'RateLimit-Reset': seconds,
		};
	}
	return {
		'X-RateLimit-Limit': String(limit),
		'X-RateLimit-Remaining': String(remaining),
		'X-RateLimit-Reset': form === 'x-ratelimit' ? String(Math.ceil(windowEnd / 1000)) : seconds,
	};
}

class FixedWindowQuota {
	/**
	 * @param {QuotaSpec} spec
	 * @param {() => number} [now]
	 */
	constructor(spec, now = Date.now) {
		this.spec = spec;
		this.now = now;
		/** Requests taken in the current window. */
		this.taken = 0;
		/** @type {number | undefined} When the current window began. */
		this.windowStart = undefined;
		/** Requests turned away (429) so far. */
		this.refused = 0;
	}

	/**
	 * A request arrives: taken while its window has quota left (one turned away takes none).
	 * @returns {QuotaAnswer}
	 */
	take() {
		const now = this.now();
		const windowMs = this.spec.windowSeconds * 1000;
		const first = this.windowStart ?? now;
		// Windows follow one another from the first request: the current one holds `now`.
		const passed = Math.floor((now - first) / windowMs);
		if (this.windowStart === undefined || passed > 0) this.taken = 0;
		this.windowStart = first + passed * windowMs;
		const windowEnd = this.windowStart + windowMs;
		const admitted = this.taken < this.spec.limit;
		if (admitted) this.taken++;
		else this.refused++;
		const headers = quotaHeaders(this.spec, this.spec.limit - this.taken, windowEnd, now);
		if (!admitted) headers['Retry-After'] = String(Math.ceil((windowEnd - now) / 1000));
		return { admitted, headers };
	}
}

/**
 * `--quota <requests>/<seconds>` and `--quota-headers <form>` as given: the quota, none (neither
 * given), or why they cannot be used.
 * @param {string | undefined} quota
 * @param {string | undefined} form
 * @returns {QuotaSpec | undefined | { problem: string }}
 */
function quotaFlags(quota, form) {
	if (quota === undefined) {
		return form === undefined
			? undefined
			: { problem: '--quota-headers is only used with --quota' };
	}
	const match = /^(\d+)\/(\d+)$/.exec(quota.trim());
	const limit = match ? Number(match[1]) : 0;
	const windowSeconds = match ? Number(match[2]) : 0;
	if (limit < 1 || windowSeconds < 1) {
		return {
			problem: `--quota must be <requests>/<seconds>, both whole numbers above 0 (such as 20/10), got ${JSON.stringify(quota)}`,
		};
	}
	const chosen = QUOTA_FORMS.find((known) => known === (form ?? 'draft'));
	if (chosen === undefined) {
		return {
			problem: `--quota-headers must be one of ${QUOTA_FORMS.join(', ')}, got ${JSON.stringify(form)}`,
		};
	}
	return { limit, windowSeconds, form: chosen };
}

/**
 * What a simulator with this quota does, for the user who asked: a label and a sentence.
 * @param {QuotaSpec} spec
 * @returns {[string, string]}
 */
function quotaLine({ limit, windowSeconds, form }) {
	return [
		'Quota',
		`${limit} requests every ${windowSeconds} s, told in ${QUOTA_FORM_HEADERS[form]}; beyond it, 429 with Retry-After until the window ends`,
	];
}

module.exports = {
	QUOTA_FORMS,
	QUOTA_FORM_HEADERS,
	FixedWindowQuota,
	quotaFlags,
	quotaHeaders,
	quotaLine,
};
