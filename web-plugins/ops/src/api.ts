import { request } from '@atrium/sdk';

/** Dates are ISO 8601 text in UTC. */
export type Stamp = string | null;

export interface NodeInfo {
  node: string;
  hostname: string;
  pid: number;
  version: string;
  startedAt: Stamp;
  uptimeSeconds: number;
  lastSeen: Stamp;
  lastSeenSeconds: number;
  load: number[];
  cpus: number;
  scheduler: boolean;
  tasks: string;
  python: string;
  current: boolean;
}

export interface Check {
  name: string;
  state: 'ok' | 'failing' | 'skipped';
  error: string;
  ms: number | null;
}

export interface Queues {
  mode: 'in-process' | 'redis';
  name: string;
  queued: number | null;
  running: number | null;
  failed: number | null;
  workers: number | null;
  error: string;
}

export interface StorageInfo {
  kind: string;
  bucket: string;
  prefix: string;
  endpoint: string;
  folder: string;
  reachable: boolean;
  ms: number;
}

export interface LastRun {
  outcome: string;
  node: string;
  startedAt: Stamp;
  endedAt: Stamp;
  durationMs: number | null;
  error: string;
  manual: boolean;
}

export interface Job {
  id: string;
  plugin: string;
  trigger: string;
  triggerText: string;
  intervalSeconds: number | null;
  nextRunAt: Stamp;
  paused: boolean;
  pausedAt: Stamp;
  pausedBy: string;
  lastRun: LastRun | null;
}

export interface Jobs {
  node: string;
  scheduler: boolean;
  jobs: Job[];
}

export type TaskState = 'queued' | 'running' | 'failed' | 'done';

export interface Task {
  id: string;
  func: string;
  state: TaskState;
  enqueuedAt: Stamp;
  startedAt: Stamp;
  endedAt: Stamp;
  error: string;
}

// Reads are silent: the screens refresh every 10 s and show a failure in place rather than a toast each time.
export const nodes = () => request<NodeInfo[]>('ops/nodes', { silent: true });
export const readiness = () => request<Check[]>('ops/readiness', { silent: true });
export const queues = () => request<Queues>('ops/queues', { silent: true });
export const storage = () => request<StorageInfo>('ops/storage', { silent: true });
export const jobs = () => request<Jobs>('ops/jobs', { silent: true });
export const tasks = (state?: TaskState) => request<Task[]>('ops/tasks', { params: state ? { state } : {}, silent: true });

export const runJob = (jobId: string) => request<{ taskId: string }>('ops/jobs/run', { method: 'POST', data: { jobId } });
export const pauseJob = (jobId: string) => request('ops/jobs/pause', { method: 'POST', data: { jobId } });
export const resumeJob = (jobId: string) => request('ops/jobs/resume', { method: 'POST', data: { jobId } });
export const retryTask = (taskId: string) => request<{ taskId: string }>('ops/tasks/retry', { method: 'POST', data: { taskId } });
