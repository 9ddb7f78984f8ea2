/**
 * Redis and a throwaway PostgreSQL cluster from Debian's packages (installed by e2e/install.sh), on
 * free ports on 127.0.0.1, in a temp folder: what n8n's main and workers share in queue mode.
 * PostgreSQL refuses to run as root, so as root it runs as Debian's `postgres` user.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from '../../dev/n8nApp';

const DB_USER = 'n8n';

function postgresBin(tool: string): string {
	const versions = readdirSync('/usr/lib/postgresql').sort();
	if (versions.length === 0)
		throw new Error('PostgreSQL is not installed: run bash e2e/install.sh');
	return join('/usr/lib/postgresql', versions[versions.length - 1], 'bin', tool);
}

/** As root: as the `postgres` user; otherwise as ourselves. */
function asDbUser(command: string, args: string[]): [string, string[]] {
	return process.getuid?.() === 0
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: [command, args];
}

async function waitFor(what: string, ready: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	while (!(await ready())) {
		if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

export class QueueServices {
	redisPort = 0;
	postgresPort = 0;
	private readonly dir = mkdtempSync(join(tmpdir(), 'n8n-queue-'));
	private readonly children: ChildProcess[] = [];
	private postgresData?: string;

	async start(): Promise<this> {
		this.redisPort = await freePort();
		let redisLog = '';
		const redis = spawn(
			'redis-server',
			['--port', String(this.redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		this.children.push(redis);
		redis.stdout.on('data', (chunk: Buffer) => (redisLog += chunk.toString('utf8')));
		await waitFor('Redis', () => /Ready to accept connections/.test(redisLog));

		const data = join(this.dir, 'pg');
		if (process.getuid?.() === 0) {
			const { uid, gid } = postgresIds();
			chownSync(this.dir, uid, gid);
		}
		execFileSync(
			...asDbUser(postgresBin('initdb'), ['-D', data, '-A', 'trust', '-U', DB_USER, '--no-sync']),
			{ stdio: 'ignore' },
		);
		this.postgresPort = await freePort();
		const options = `-p ${this.postgresPort} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
		execFileSync(
			...asDbUser(postgresBin('pg_ctl'), [
				...['-D', data, '-o', options, '-l', join(this.dir, 'postgres.log'), '-w', 'start'],
			]),
			{ stdio: 'ignore' },
		);
		this.postgresData = data;
		return this;
	}

	/** The settings that put an n8n process (main or worker) on these services in queue mode. */
	get n8nEnv(): Record<string, string> {
		return {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(this.redisPort),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.postgresPort),
			DB_POSTGRESDB_USER: DB_USER,
			DB_POSTGRESDB_DATABASE: 'postgres',
		};
	}

	/** One SQL query's rows, as tab-separated fields. */
	query(sql: string): string[][] {
		const out = execFileSync(
			postgresBin('psql'),
			[
				...['-h', '127.0.0.1', '-p', String(this.postgresPort)],
				...['-U', DB_USER, '-d', 'postgres', '-At', '-F', '\t', '-v', 'ON_ERROR_STOP=1'],
			],
			{ input: sql, encoding: 'utf8', env: { ...process.env, PSQLRC: '/dev/null' } },
		);
		return out
			.split('\n')
			.filter((line) => line !== '')
			.map((line) => line.split('\t'));
	}

	async stop(): Promise<void> {
		await Promise.all(
			this.children.map(async (child) => {
				if (child.exitCode !== null || child.signalCode !== null) return;
				const exited = new Promise((resolve) => child.once('exit', resolve));
				child.kill('SIGTERM');
				await exited;
			}),
		);
		if (this.postgresData) {
			execFileSync(
				...asDbUser(postgresBin('pg_ctl'), ['-D', this.postgresData, '-m', 'fast', '-w', 'stop']),
				{ stdio: 'ignore' },
			);
			this.postgresData = undefined;
		}
		rmSync(this.dir, { recursive: true, force: true });
	}
}

function postgresIds(): { uid: number; gid: number } {
	const [uid, gid] = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
		.trim()
		.split('\n')
		.concat(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
	return { uid: Number(uid), gid: Number(gid) };
}
