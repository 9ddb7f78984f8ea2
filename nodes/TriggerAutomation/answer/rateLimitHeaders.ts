/**
 * The quota an answer's headers tell (names in any case): drafts -08 to -11, `RateLimit: "a";r=50;t=30`
 * with `RateLimit-Policy: "a";q=100;w=60`; -07, `RateLimit: limit=100, remaining=50, reset=30`;
 * earlier, `RateLimit-Limit/-Remaining/-Reset`; `X-RateLimit-*`. The tightest is kept; what does
 * not parse or disagrees is ignored; a Retry-After takes precedence over the reset (draft §7).
 */
import type { IDataObject } from 'n8n-workflow';

import { headerValue } from './response';
import { parseRetryAfter } from './serviceAnswer';

export interface QuotaReading {
	/** Requests the service still takes before the reset. */
	remaining: number;
	/** When the quota resets (ms since 1970), as the answer said. */
	resetAt: number;
	/** The header that said so, as a user finds it in the answer. */
	header: 'RateLimit' | 'RateLimit-Remaining' | 'X-RateLimit-Remaining';
}

/** Above this a Reset is a time since 1970, not seconds from now (10^9 s: 31 years; 2001-09-09). */
const EPOCH_SECONDS_FROM = 1e9;
/** Above this, that time is in milliseconds (10^12 s would be the year 33658). */
const EPOCH_MS_FROM = 1e12;
/** Two forms whose resets differ by more than this disagree (each is rounded to seconds). */
const SAME_RESET_MS = 2000;

// Structured fields (RFC 8941), leniently, as far as these headers go: lists and dictionaries of
// bare items (number, "string" or token: names, :bytes:, ?1) with parameters, no inner lists.
const TOKEN = String.raw`[A-Za-z*][\w!#$%&'*+.^\x60|~:/-]*`;
const ITEM = String.raw`-?\d+(?:\.\d+)?|"(?:[^"\\]|\\["\\])*"|${TOKEN}|:[\w+/=]*:|\?[01]`;
const KEY = '[a-z*][a-z0-9_.*-]*';
const PARAM = String.raw`;\s*(${KEY})(?:=(${ITEM}))?`;
const PARAMS = new RegExp(PARAM, 'g');
const NEXT = String.raw`\s*(?:,(?=\s*\S)|$)`;
/** A member (`key=` in a dictionary), its parameters, then a comma and another, or the end. */
const MEMBER = new RegExp(String.raw`\s*(?:(${KEY})=)?(${ITEM})((?:${PARAM})*)${NEXT}`, 'y');
type Bare = number | string | boolean | { bytes: string };

/** A bare item's value; a parameter without one is ?1 (true). */
function bare(text = '?1'): Bare {
	if (text.startsWith('"')) return text.slice(1, -1).replace(/\\(["\\])/g, '$1');
	if (text.startsWith(':')) return { bytes: text.slice(1, -1) };
	if (text.startsWith('?')) return text === '?1';
	return /^-?\d/.test(text) ? Number(text) : text;
}

/** The members of a list or dictionary; undefined when the text is neither (or is empty). */
function members(text = '') {
	const found: Array<{ key?: string; raw: string; value: Bare; params: Map<string, Bare> }> = [];
	for (MEMBER.lastIndex = 0; MEMBER.lastIndex < text.length; ) {
		const match = MEMBER.exec(text);
		if (!match) return undefined;
		const params = [...match[3].matchAll(PARAMS)].map(([, k, v]) => [k, bare(v)] as const);
		found.push({ key: match[1], raw: match[2], value: bare(match[2]), params: new Map(params) });
	}
	return found.length > 0 ? found : undefined;
}

/** A non-negative Integer, else undefined. */
const count = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
/** Of several readings, the one that lets fewest requests go: fewest remaining, latest reset. */
const tightest = (readings: QuotaReading[]): QuotaReading | undefined =>
	[...readings].sort((a, b) => a.remaining - b.remaining || b.resetAt - a.resetAt)[0];

/** RateLimit: -07's dictionary, or from -08 on named items, with RateLimit-Policy's by name. */
function draftReading(headers: IDataObject, now: number): QuotaReading | undefined {
	const items = members(headerValue(headers, 'ratelimit')) ?? [];
	const field = (name: string) => items.find(({ key }) => key === name)?.raw;
	if (items.every(({ key }) => key)) return trio(field, now, 'RateLimit');
	const policy = new Map<Bare, Map<string, Bare>>();
	for (const { value, params } of members(headerValue(headers, 'ratelimit-policy')) ?? []) {
		// A policy without its quota, or with a window of 0, is malformed: ignored (§7).
		if (count(params.get('q')) !== undefined && params.get('w') !== 0) policy.set(value, params);
	}
	const readings: QuotaReading[] = [];
	for (const { key, value: name, params } of items) {
		const [r, t, its] = [count(params.get('r')), count(params.get('t')), policy.get(name)];
		if (key !== undefined || typeof name !== 'string' || r === undefined) return undefined;
		if ((params.has('t') && t === undefined) || r > (count(its?.get('q')) ?? r)) return undefined;
		// Other units (bytes, concurrent requests) say nothing of how many requests may start.
		if (its?.has('qu') && its.get('qu') !== 'requests') continue;
		// Without `t`, the policy's window is the longest the quota can take to come back.
		const seconds = t ?? count(its?.get('w'));
		if (seconds !== undefined)
			readings.push({ remaining: r, resetAt: now + seconds * 1000, header: 'RateLimit' });
	}
	return tightest(readings);
}

/** A Reset: seconds from now, or a time since 1970 in seconds or ms. */
function resetTime(text: string | undefined, now: number): number | undefined {
	if (!/^\s*\d+(\.\d+)?\s*$/.test(text ?? '')) return undefined;
	const value = Number(text);
	if (value > EPOCH_MS_FROM) return value;
	return value > EPOCH_SECONDS_FROM ? value * 1000 : now + value * 1000;
}

/** Limit (if told), Remaining and Reset by `get`: draft -07's, RateLimit-*, X-RateLimit-*. */
function trio(get: (n: string) => string | undefined, now: number, header: QuotaReading['header']) {
	const [limit, left, reset] = ['limit', 'remaining', 'reset'].map(get);
	// "100", or as Envoy and the first drafts write it, "100, 100;w=60": the first item is the limit.
	const most = limit === undefined ? Infinity : count(members(limit)?.[0].value);
	const remaining = members(left)?.length === 1 ? count(members(left)?.[0].value) : undefined;
	const resetAt = resetTime(reset, now);
	if (remaining === undefined || resetAt === undefined || most === undefined) return undefined;
	return remaining > most ? undefined : { remaining, resetAt, header };
}

/** The quota the answer's headers tell, or undefined: none, or none that can be believed. */
export function readQuota(headers: IDataObject, now: number): QuotaReading | undefined {
	const readings = [
		draftReading(headers, now),
		trio((name) => headerValue(headers, `ratelimit-${name}`), now, 'RateLimit-Remaining'),
		trio((name) => headerValue(headers, `x-ratelimit-${name}`), now, 'X-RateLimit-Remaining'),
	].filter((form): form is QuotaReading => form !== undefined);
	const agree = ({ remaining, resetAt }: QuotaReading) =>
		remaining === readings[0].remaining && Math.abs(resetAt - readings[0].resetAt) <= SAME_RESET_MS;
	const kept = readings.every(agree) ? tightest(readings) : undefined;
	const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), now);
	return kept && retryAfterMs !== undefined ? { ...kept, resetAt: now + retryAfterMs } : kept;
}
