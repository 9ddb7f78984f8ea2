/**
 * Debian's real nginx (installed by e2e/install.sh) as a rate-limiting reverse proxy in front of a
 * service on 127.0.0.1: `limit_req` refuses what exceeds the rate and burst, with the status nginx
 * is told to use (its default is 503) and, optionally, a Retry-After header. It runs from a temp
 * folder (`nginx -p DIR -c FILE`, error log, pid and temp files there), in the foreground, so it
 * needs no root-owned path and stops with the test.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../dev/n8nApp';

export const NGINX = '/usr/sbin/nginx';

export interface NginxOptions {
	/** The service nginx passes requests on to, e.g. `http://127.0.0.1:8080`. */
	upstream: string;
	/** `limit_req_zone … rate=<n>r/s`. */
	ratePerSecond: number;
	/**
	 * `limit_req … burst=<n>`: requests over the rate that are queued (or, with nodelay, let
	 * through); 0, nginx's default, refuses every request over the rate.
	 */
	burst: number;
	/** `limit_req … nodelay`: the burst is passed on at once rather than spaced out at the rate. */
	nodelay?: boolean;
	/** `limit_req_status`: 429, or nginx's default 503 when not given. */
	status?: 429 | 503;
	/** `add_header Retry-After <n> always`: on every answer, nginx's own refusals included. */
	retryAfterSeconds?: number;
	/**
	 * Retry-After <n> on nginx's own answers only (those it gave without asking the service, when
	 * `$upstream_status` is empty), through a `map`: the configuration docs/behind-a-proxy.md shows.
	 */
	retryAfterOnRefusalsSeconds?: number;
	/** An access log, one line per request in ACCESS_LOG_FORMAT (the bench counts refusals in it). */
	accessLog?: boolean;
}

/** When the line was logged (s, ms precision), seconds since the request arrived, the status. */
export const ACCESS_LOG_FORMAT = '$msec $request_time $status $upstream_status';

export interface RunningNginx {
	/** `http://127.0.0.1:<port>` */
	url: string;
	/** nginx's error log so far (limit_req logs each refusal there). */
	errorLog(): string;
	/** The access log so far ('' unless `accessLog`). */
	accessLog(): string;
	/** Stops nginx (fast shutdown) and waits for it to exit; removes its folder. */
	stop(): Promise<void>;
}

/** The configuration file's text: everything in `dir`, listening on 127.0.0.1:`port` only. */
export function nginxConfig(dir: string, port: number, options: NginxOptions): string {
	const upstream = new URL(options.upstream);
	if (upstream.protocol !== 'http:' || upstream.hostname !== '127.0.0.1') {
		throw new Error(`nginx proxies to http://127.0.0.1 only, not ${options.upstream}`);
	}
	const limit = [
		'zone=limit',
		...(options.burst > 0 ? [`burst=${options.burst}`] : []),
		...(options.nodelay ? ['nodelay'] : []),
	].join(' ');
	return [
		'daemon off;',
		'master_process on;',
		'worker_processes 1;',
		`pid ${dir}/nginx.pid;`,
		`error_log ${dir}/error.log warn;`,
		'events { worker_connections 4096; }',
		'http {',
		...(options.accessLog
			? [`\tlog_format timing '${ACCESS_LOG_FORMAT}';`, `\taccess_log ${dir}/access.log timing;`]
			: ['\taccess_log off;']),
		`\tclient_body_temp_path ${dir}/client_body;`,
		`\tproxy_temp_path ${dir}/proxy;`,
		`\tfastcgi_temp_path ${dir}/fastcgi;`,
		`\tuwsgi_temp_path ${dir}/uwsgi;`,
		`\tscgi_temp_path ${dir}/scgi;`,
		`\tlimit_req_zone $binary_remote_addr zone=limit:1m rate=${options.ratePerSecond}r/s;`,
		...(options.retryAfterOnRefusalsSeconds === undefined
			? []
			: [
					`\tmap $upstream_status $limit_retry_after { "" ${options.retryAfterOnRefusalsSeconds}; default ""; }`,
				]),
		...(options.status === undefined ? [] : [`\tlimit_req_status ${options.status};`]),
		`\tupstream service { server ${upstream.host}; keepalive 64; }`,
		'\tserver {',
		`\t\tlisten 127.0.0.1:${port};`,
		'\t\tlocation / {',
		`\t\t\tlimit_req ${limit};`,
		'\t\t\tproxy_pass http://service;',
		'\t\t\tproxy_http_version 1.1;',
		'\t\t\tproxy_set_header Connection "";',
		...(options.retryAfterSeconds === undefined
			? []
			: [`\t\t\tadd_header Retry-After ${options.retryAfterSeconds} always;`]),
		...(options.retryAfterOnRefusalsSeconds === undefined
			? []
			: ['\t\t\tadd_header Retry-After $limit_retry_after always;']),
		'\t\t}',
		'\t}',
		'}',
		'',
	].join('\n');
}

function accepts(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

function exited(child: ChildProcess): boolean {
	return child.exitCode !== null || child.signalCode !== null;
}

/** Starts nginx and resolves once it accepts connections. */
export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
	if (!existsSync(NGINX)) {
		throw new Error('nginx is not installed: run bash e2e/install.sh nginx');
	}
	const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
	// Started as root, nginx's worker runs as `nobody`: it must reach its temp folders in here.
	chmodSync(dir, 0o755);
	const port = await freePort();
	const configFile = join(dir, 'nginx.conf');
	writeFileSync(configFile, nginxConfig(dir, port, options));
	const errorLogFile = join(dir, 'error.log');
	const errorLog = () => (existsSync(errorLogFile) ? readFileSync(errorLogFile, 'utf8') : '');
	const accessLogFile = join(dir, 'access.log');
	const accessLog = () => (existsSync(accessLogFile) ? readFileSync(accessLogFile, 'utf8') : '');
	let stderr = '';
	// -e: the log nginx writes before it has read the configuration (its built-in one is under /var).
	const child = spawn(NGINX, ['-p', dir, '-e', errorLogFile, '-c', configFile], {
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
	const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
	const stop = async () => {
		if (!exited(child)) {
			child.kill('SIGTERM');
			await exit;
		}
		rmSync(dir, { recursive: true, force: true });
	};
	const deadline = Date.now() + 10_000;
	while (!(await accepts(port))) {
		if (exited(child) || Date.now() > deadline) {
			const log = `${stderr}${errorLog()}`.trim();
			await stop();
			throw new Error(`nginx did not start on 127.0.0.1:${port}: ${log || '(no log)'}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return { url: `http://127.0.0.1:${port}`, errorLog, accessLog, stop };
}
