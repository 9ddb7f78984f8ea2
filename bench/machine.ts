/** Facts about the machine and the run, printed with the results. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';

import { PACKAGE_DIR } from './paths';

export interface MachineFacts {
	date: string;
	cpuModel: string;
	cores: number;
	totalMemoryBytes: number;
	os: string;
	node: string;
	/** 1-minute load average when the run started and ended */
	loadStart: number;
	loadEnd?: number;
	/** The commit the package was built from, and whether nodes/ or credentials/ had changes */
	commit: string;
	uncommittedSource: boolean;
	/** CPU-seconds used on the whole machine, by the bench (with its children), and wall seconds */
	cpu?: { machineS: number; benchS: number; wallS: number };
}

interface CpuSnapshot {
	machineTicks: number;
	benchTicks: number;
	at: bigint;
}

let start: CpuSnapshot | undefined;

function git(args: string[]): string {
	try {
		return execFileSync('git', args, { cwd: PACKAGE_DIR, encoding: 'utf8' }).trim();
	} catch {
		return '';
	}
}

function ticksPerSecond(): number {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
	} catch {
		return 100;
	}
}

/** Busy ticks of all CPUs (/proc/stat) and of this process and its reaped children. Linux only. */
function cpuSnapshot(): CpuSnapshot | undefined {
	try {
		const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]
			.split(/\s+/)
			.slice(1)
			.map(Number);
		const own = readFileSync('/proc/self/stat', 'utf8');
		// Fields after "(comm)": state is field 3, utime/stime/cutime/cstime are fields 14–17.
		const fields = own
			.slice(own.lastIndexOf(')') + 2)
			.split(' ')
			.map(Number);
		const [utime, stime, cutime, cstime] = fields.slice(11, 15);
		return {
			machineTicks: user + nice + system + irq + softirq + steal,
			benchTicks: utime + stime + cutime + cstime,
			at: process.hrtime.bigint(),
		};
	} catch {
		return undefined;
	}
}

export function machineFacts(): MachineFacts {
	const list = cpus();
	start = cpuSnapshot();
	return {
		date: new Date().toISOString(),
		cpuModel: list[0]?.model.trim() ?? 'unknown',
		cores: list.length,
		totalMemoryBytes: totalmem(),
		os: `${osType()} ${release()}`,
		node: process.version,
		loadStart: loadavg()[0],
		commit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
		uncommittedSource: git(['status', '--porcelain', '--', 'nodes', 'credentials']) !== '',
	};
}

/** Call after every child process has exited, so that their CPU time is counted as the bench's. */
export function finishFacts(facts: MachineFacts): MachineFacts {
	const end = cpuSnapshot();
	let cpu: MachineFacts['cpu'];
	if (start && end) {
		const hz = ticksPerSecond();
		cpu = {
			machineS: (end.machineTicks - start.machineTicks) / hz,
			benchS: (end.benchTicks - start.benchTicks) / hz,
			wallS: Number(end.at - start.at) / 1e9,
		};
	}
	return { ...facts, loadEnd: loadavg()[0], cpu };
}

/** The kernel's count of TCP retransmission timeouts (a lost SYN costs a 1 s stall). Linux only. */
export function tcpTimeouts(): number | undefined {
	try {
		const [names, values] = readFileSync('/proc/net/netstat', 'utf8').split('\n');
		const index = names.split(' ').indexOf('TCPTimeouts');
		return index > 0 ? Number(values.split(' ')[index]) : undefined;
	} catch {
		return undefined;
	}
}
