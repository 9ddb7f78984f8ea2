/**
 * DNS for the tests, answered in-process: no query ever leaves the machine. Installing it replaces
 * `dns.lookup` (what node:net and so n8n's HTTP client use to resolve a host name) and
 * `dns.promises.lookup` with a table lookup, and makes every resolver that would ask a DNS server
 * (`dns.resolve*`, `dns.promises.resolve*`) throw. IP literals resolve to themselves, `localhost` to
 * 127.0.0.1, names in the table to what the table says, and every other name fails with ENOTFOUND —
 * as made-up `.invalid` names (RFC 2606) would.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';

/** What one lookup of a name answers: an address, or a DNS error code. */
export type DnsAnswer = { address: string } | { error: 'ENOTFOUND' | 'EAI_AGAIN' };

const table = new Map<string, () => DnsAnswer>();
/** Every name looked up since install, in order (IP literals included). */
export const lookups: string[] = [];
let installed = false;

function answerFor(hostname: string): DnsAnswer {
	if (isIP(hostname)) return { address: hostname };
	if (hostname === 'localhost') return { address: '127.0.0.1' };
	return table.get(hostname.toLowerCase())?.() ?? { error: 'ENOTFOUND' };
}

function dnsError(code: string, hostname: string): NodeJS.ErrnoException {
	return Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), {
		code,
		errno: code === 'ENOTFOUND' ? -3008 : -3001,
		syscall: 'getaddrinfo',
		hostname,
	});
}

type LookupCallback = (error: Error | null, address?: unknown, family?: number) => void;

function localLookup(hostname: string, options: unknown, callback?: unknown): void {
	const done = (typeof options === 'function' ? options : callback) as LookupCallback;
	const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
	lookups.push(hostname);
	const answer = answerFor(hostname);
	if ('error' in answer) {
		process.nextTick(done, dnsError(answer.error, hostname));
		return;
	}
	const family = isIP(answer.address);
	if (all) process.nextTick(done, null, [{ address: answer.address, family }]);
	else process.nextTick(done, null, answer.address, family);
}

function refuse(name: string) {
	return () => {
		throw new Error(`dns.${name} would send a DNS query; the tests resolve names locally only`);
	};
}

export function installLocalDns(): void {
	if (installed) return;
	installed = true;
	const promiseLookup = async (hostname: string, options?: { all?: boolean }) =>
		await new Promise((resolve, reject) =>
			localLookup(
				hostname,
				options ?? {},
				(error: Error | null, address?: unknown, family?: number) =>
					error ? reject(error) : resolve(options?.all ? address : { address, family }),
			),
		);
	const patch = (target: object, name: string, value: unknown) =>
		Object.defineProperty(target, name, { value, writable: true, configurable: true });
	patch(dns, 'lookup', localLookup);
	patch(dns.promises, 'lookup', promiseLookup);
	for (const target of [dns, dns.promises] as unknown as Array<Record<string, unknown>>) {
		for (const name of Object.keys(target)) {
			if (/^resolve/.test(name) || name === 'reverse' || name === 'lookupService') {
				patch(target, name, refuse(name));
			}
		}
	}
}

/** Answers lookups of `hostname` with `answer()` (called on every lookup). */
export function setHost(hostname: string, answer: () => DnsAnswer): void {
	table.set(hostname.toLowerCase(), answer);
}

export function clearHosts(): void {
	table.clear();
}
