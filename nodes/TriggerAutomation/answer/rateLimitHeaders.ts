/**
 * The quota an answer tells in its rate-limit headers: how many requests the service still takes
 * before its quota resets, and when that is. Three forms are read (names in any case):
 *
 * - IETF draft-ietf-httpapi-ratelimit-headers-10/-11: `RateLimit: "default";r=50;t=30`, with
 *   `RateLimit-Policy: "default";q=100;w=60` (structured-field lists, items matched by name);
 * - its earlier drafts (-06 and before; Kong's default): `RateLimit-Limit`, `RateLimit-Remaining`,
 *   `RateLimit-Reset`;
 * - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (GitHub, Envoy and others).
 *
 * A Reset up to 10^9 is seconds from now; above, a time since 1970: in seconds (GitHub), or above
 * 10^12 in milliseconds. The draft's policy, and a Limit's as Envoy writes it, also tell the
 * window's length (`w`). Of several quotas, the tightest (fewest remaining) is kept. A header that
 * does not parse or disagrees with itself (more remaining than its limit) is ignored, and so is
 * every form when two forms disagree (which one to believe cannot be told). A Retry-After takes
 * precedence over the reset (draft §7).
 */
import type { IDataObject } from 'n8n-workflow';

import { headerValue } from './response';
import { parseRetryAfter } from './serviceAnswer';

export interface QuotaReading {
	/** Requests the service still takes before the reset. */
	remaining: number;
	/** When the quota resets (ms since 1970), as the answer said. */
	resetAt: number;
	/** The quota in its window, when the answer says it (RateLimit-Policy's q, the Limit header). */
	limit?: number;
	/** The length of the quota's window, when a policy tells it (`w`: the draft's, Envoy's). */
	windowMs?: number;
	/** The header that said so, as a user finds it in the answer. */
	header: 'RateLimit' | 'RateLimit-Remaining' | 'X-RateLimit-Remaining';
}

/** Above this a Reset is a time since 1970, not seconds from now (10^9 s: 31 years; 2001-09-09). */
const EPOCH_SECONDS_FROM = 1e9;
/** Above this, that time is in milliseconds (10^12 s would be the year 33658). */
const EPOCH_MS_FROM = 1e12;
/** Two forms whose resets differ by more than this disagree (each is rounded to seconds). */
const SAME_RESET_MS = 2000;

// Structured-field values (RFC 8941), as much as these headers use: lists of items with parameters.
type Bare =
	| { kind: 'integer' | 'decimal'; value: number }
	| { kind: 'string' | 'token' | 'bytes'; value: string }
	| { kind: 'boolean'; value: boolean };
interface Item {
	value: Bare;
	params: Map<string, Bare>;
}

const BARE_ITEM =
	/^(?:(-?\d{1,12}\.\d{1,3})|(-?\d{1,15})|"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"|([A-Za-z*][\w!#$%&'*+.^`|~:/-]*)|:([A-Za-z0-9+/=]*):|\?([01]))/;
const KEY = /^[a-z*][a-z0-9_.*-]*/;

/** One bare item at the start of `text`, and what follows it; undefined if there is none. */
function bareItem(text: string): [Bare, string] | undefined {
	const match = BARE_ITEM.exec(text);
	if (!match) return undefined;
	const [all, decimal, integer, string, token, bytes, boolean] = match;
	const rest = text.slice(all.length);
	if (decimal !== undefined) return [{ kind: 'decimal', value: Number(decimal) }, rest];
	if (integer !== undefined) return [{ kind: 'integer', value: Number(integer) }, rest];
	if (string !== undefined) {
		return [{ kind: 'string', value: string.replace(/\\(["\\])/g, '$1') }, rest];
	}
	if (token !== undefined) return [{ kind: 'token', value: token }, rest];
	if (bytes !== undefined) return [{ kind: 'bytes', value: bytes }, rest];
	return [{ kind: 'boolean', value: boolean === '1' }, rest];
}

/** A structured-field list of items (RFC 8941, section 4.2.1); undefined if the text is not one. */
function parseList(text: string): Item[] | undefined {
	const items: Item[] = [];
	let rest = text.trim();
	while (rest !== '') {
		const item = bareItem(rest);
		if (!item) return undefined;
		let value: Bare;
		[value, rest] = item;
		const params = new Map<string, Bare>();
		while (rest.startsWith(';')) {
			rest = rest.slice(1).trimStart();
			const key = KEY.exec(rest)?.[0];
			if (key === undefined) return undefined;
			rest = rest.slice(key.length);
			let param: Bare = { kind: 'boolean', value: true };
			if (rest.startsWith('=')) {
				const parsed = bareItem(rest.slice(1));
				if (!parsed) return undefined;
				[param, rest] = parsed;
			}
			params.set(key, param);
		}
		items.push({ value, params });
		rest = rest.trimStart();
		if (rest === '') break;
		if (!rest.startsWith(',')) return undefined;
		rest = rest.slice(1).trimStart();
		// A trailing comma is not a list.
		if (rest === '') return undefined;
	}
	return items.length > 0 ? items : undefined;
}

/** A parameter or item that is a non-negative Integer, else undefined. */
function count(bare: Bare | undefined): number | undefined {
	return bare?.kind === 'integer' && bare.value >= 0 ? bare.value : undefined;
}

/** An item's name: a String (as the draft says) or a Token; undefined if it is neither. */
function nameOf(item: Item): string | undefined {
	return item.value.kind === 'string' || item.value.kind === 'token' ? item.value.value : undefined;
}

/** Of several readings, the one that lets fewest requests go: fewest remaining, then latest reset. */
function tightest(readings: QuotaReading[]): QuotaReading | undefined {
	return readings.reduce<QuotaReading | undefined>(
		(kept, reading) =>
			kept === undefined ||
			reading.remaining < kept.remaining ||
			(reading.remaining === kept.remaining && reading.resetAt > kept.resetAt)
				? reading
				: kept,
		undefined,
	);
}

interface Policy {
	quota: number;
	windowSeconds?: number;
	/** Counted in requests: the draft's `qu` absent or "requests". */
	inRequests: boolean;
}

/** RateLimit-Policy (draft -10/-11) by name; empty when absent or when it does not parse. */
function policies(text: string | undefined): Map<string, Policy> {
	const byName = new Map<string, Policy>();
	const items = text === undefined ? undefined : parseList(text);
	for (const item of items ?? []) {
		const name = nameOf(item);
		const quota = count(item.params.get('q'));
		const window = count(item.params.get('w'));
		const unit = item.params.get('qu');
		// One malformed item makes the field malformed: the draft has it ignored (§7).
		if (name === undefined || quota === undefined || window === 0) return new Map();
		byName.set(name, {
			quota,
			windowSeconds: window,
			inRequests: unit === undefined || (unit.kind === 'string' && unit.value === 'requests'),
		});
	}
	return byName;
}

/** The draft's RateLimit: its tightest service limit counted in requests, with a reset. */
function draftReading(headers: IDataObject, now: number): QuotaReading | undefined | 'ignored' {
	const text = headerValue(headers, 'ratelimit');
	if (text === undefined) return undefined;
	const items = parseList(text);
	if (!items) return 'ignored';
	const byName = policies(headerValue(headers, 'ratelimit-policy'));
	const readings: QuotaReading[] = [];
	for (const item of items) {
		const name = nameOf(item);
		const remaining = count(item.params.get('r'));
		const t = item.params.get('t');
		if (name === undefined || remaining === undefined || (t && count(t) === undefined)) {
			return 'ignored';
		}
		const policy = byName.get(name);
		// Other units (bytes, concurrent requests) say nothing of how many requests may start.
		if (policy && !policy.inRequests) continue;
		if (policy && remaining > policy.quota) return 'ignored';
		// Without `t`, the policy's window is the longest the quota can take to come back.
		const seconds = t ? count(t) : policy?.windowSeconds;
		if (seconds === undefined) continue;
		readings.push({
			remaining,
			resetAt: now + seconds * 1000,
			header: 'RateLimit',
			...(policy && { limit: policy.quota }),
			...(policy?.windowSeconds !== undefined && { windowMs: policy.windowSeconds * 1000 }),
		});
	}
	return tightest(readings);
}

/** A Reset: seconds from now, or a time since 1970 in seconds or milliseconds. */
function resetTime(text: string, now: number): number | undefined {
	if (!/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
	const value = Number(text);
	if (value > EPOCH_MS_FROM) return value;
	if (value > EPOCH_SECONDS_FROM) return value * 1000;
	return now + value * 1000;
}

/** `<prefix>Limit`, `-Remaining`, `-Reset` (the earlier drafts, X-RateLimit-*). */
function trioReading(
	headers: IDataObject,
	prefix: 'ratelimit' | 'x-ratelimit',
	now: number,
): QuotaReading | undefined | 'ignored' {
	const remainingText = headerValue(headers, `${prefix}-remaining`);
	const resetText = headerValue(headers, `${prefix}-reset`);
	if (remainingText === undefined && resetText === undefined) return undefined;
	const remainingItems = parseList(remainingText ?? '');
	const remaining = remainingItems?.length === 1 ? count(remainingItems[0].value) : undefined;
	const resetAt = resetText === undefined ? undefined : resetTime(resetText, now);
	if (remaining === undefined || resetAt === undefined) return 'ignored';
	const limitText = headerValue(headers, `${prefix}-limit`);
	// "100", or as Envoy and the first drafts write it, "100, 100;w=60": the first item is the limit,
	// and the policy after it whose quota is the limit tells the window's length.
	const limitItems = limitText === undefined ? undefined : parseList(limitText);
	const limit = count(limitItems?.[0].value);
	if (limitText !== undefined && (limit === undefined || remaining > limit)) return 'ignored';
	const policies = limitItems?.slice(1).filter((item) => count(item.value) === limit) ?? [];
	// Two such policies with different windows: which one is in force cannot be told.
	const windows = new Set(policies.map((item) => count(item.params.get('w'))));
	const windowSeconds = windows.size === 1 ? [...windows][0] : undefined;
	const header = prefix === 'ratelimit' ? 'RateLimit-Remaining' : 'X-RateLimit-Remaining';
	return {
		remaining,
		resetAt,
		header,
		...(limit !== undefined && { limit }),
		...(windowSeconds !== undefined && windowSeconds > 0 && { windowMs: windowSeconds * 1000 }),
	};
}

/** Two forms say the same quota: the same remaining, resets within rounding. */
function agree(a: QuotaReading, b: QuotaReading): boolean {
	return a.remaining === b.remaining && Math.abs(a.resetAt - b.resetAt) <= SAME_RESET_MS;
}

/** The quota the answer's headers tell, or undefined: none, or none that can be believed. */
export function readQuota(headers: IDataObject, now: number): QuotaReading | undefined {
	const readings = [
		draftReading(headers, now),
		trioReading(headers, 'ratelimit', now),
		trioReading(headers, 'x-ratelimit', now),
	].filter((form): form is QuotaReading => form !== undefined && form !== 'ignored');
	if (readings.some((reading) => !agree(reading, readings[0]))) return undefined;
	const reading = tightest(readings);
	if (!reading) return undefined;
	const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'), now);
	return retryAfterMs === undefined ? reading : { ...reading, resetAt: now + retryAfterMs };
}
