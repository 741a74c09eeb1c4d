import type { Sample } from '@netbench/plugin-api';

export interface FlentFigures {
  goodput: number;
  netperfGoodput: number;
  loadedP50: number;
  idleP50: number;
  loadedCount: number;
  idleCount: number;
  series: string[];
}
export interface NetbenchFigures {
  status: string;
  error?: string;
  goodput?: number;
  loadedP50?: number;
  idleP50?: number;
  increase?: number;
  rpm?: number;
  samples: Sample[];
}
export interface Setting {
  cc: 'cubic' | 'bbr';
  queueMs: number;
}
export interface Compared extends Setting {
  flent: FlentFigures[];
  netbench: NetbenchFigures[];
}
export function canCompare(): string | undefined;
export function allowCubic(): () => void;
export function setCongestionControl(netns: string, algorithm: string): void;
export function bridgePort(netns: string, hub: string): string;
export function shape(netns: string, queueMs: number, hub: string): void;
export function percentile(values: readonly number[], p: number): number;
export function compareWithFlent(options?: { test?: string; load?: number; idle?: number; step?: number; settings?: Setting[]; rounds?: number }): Promise<Compared[]>;
