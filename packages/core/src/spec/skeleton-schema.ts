import { z } from '@netbench/plugin-api';
import { NAME_RE, VARIABLE_RE } from '../issues/names.js';
import { TUNNEL_NAME_RE, tunnelsSchema } from '../tunnels/tunnel-schema.js';
import { flowsSchema } from './flows-schema.js';

/** Core-owned keys of each block; the rest belongs to the plugin. */
export const HOST_CORE_KEYS = ['cloud', 'reuse'] as const;
export const BENCHMARK_CORE_KEYS = ['tool', 'name', 'client', 'server', 'ip', 'flows'] as const;
export const PUBLISH_CORE_KEYS = ['type'] as const;

const name = z.string().regex(NAME_RE, 'use letters, digits, - and _ only');

export const hostSkeleton = z.looseObject({
  cloud: z.string().min(1),
  reuse: z.boolean().default(true),
});

export const benchmarkSkeleton = z
  .looseObject({
    tool: z.string().min(1),
    name: z.string().min(1).optional(),
    // Either one client/server pair, or `flows` (several pairs at once, docs/flows.md).
    client: z.string().min(1).optional(),
    server: z.string().min(1).optional(),
    ip: z
      .union([z.enum(['internal', 'external']), z.templateLiteral(['tunnel:', z.string().regex(TUNNEL_NAME_RE)])], { error: 'expected internal, external or tunnel:NAME' })
      .default('internal'),
    flows: flowsSchema.optional(),
  })
  .superRefine((bench, ctx) => {
    if (bench.flows) {
      for (const role of ['client', 'server'] as const) {
        if (bench[role] !== undefined) ctx.addIssue({ code: 'custom', path: [role], message: `give either ${role} and its partner or flows, not both` });
      }
      return;
    }
    for (const role of ['client', 'server'] as const) {
      if (bench[role] === undefined)
        ctx.addIssue({ code: 'custom', path: [role], message: `missing required field '${role}' (expected string; or give flows: one-to-many, mesh, bidirectional or pairs)` });
    }
  });

export const publishSkeleton = z.looseObject({ type: z.string().min(1) });

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'expected a string, number or boolean' });
const variable = z.string().regex(VARIABLE_RE, 'use letters, digits and _, not starting with a digit');
const values = z.array(scalar).min(1, 'needs at least one value');

export const matrixSchema = z.strictObject({
  axes: z.record(variable, values).optional(),
  zip: z.array(z.record(variable, values)).optional(),
  filter: z.union([z.string(), z.array(z.string())], { error: 'expected a CEL expression or a list of them' }).optional(),
});

export const optionsSchema = z.strictObject({
  concurrency: z.int().min(1).default(1),
  trialTimeout: z.number().positive().default(120),
  retries: z.int().min(0).default(1),
  provisionTimeout: z.number().positive().default(600),
  teardownTimeout: z.number().positive().default(300),
  runsDir: z.string().min(1).optional(),
  install: z.boolean().default(true),
  // Host counters during every trial and the diagnosis of what limited it (docs/explain.md).
  counters: z.boolean().default(true),
  repetitions: z.int().min(1).max(10_000).default(1),
  order: z.enum(['plan', 'random']).default('plan'),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  // Shards (docs/long-studies.md): this file runs part `index` (from 0) of `count`.
  shard: z
    .strictObject({ index: z.int().min(0), count: z.int().min(1).max(10_000) })
    .refine((s) => s.index < s.count, { message: 'index must be below count (shards are numbered from 0)', path: ['index'] })
    .optional(),
  study: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,128}$/, 'use letters, digits, ., - and _ only (at most 128)')
    .optional(),
  sharedHosts: z.array(name).optional(),
});

/** The whole file as the core sees it: plugin fields pass through, checked separately per plugin. */
export const specSkeleton = z.strictObject({
  name,
  description: z.string().optional(),
  hosts: z.record(name, hostSkeleton).refine((hosts) => Object.keys(hosts).length > 0, 'at least one host is needed'),
  benchmarks: z.array(benchmarkSkeleton).min(1, 'at least one benchmark is needed'),
  matrix: matrixSchema.optional(),
  tunnels: tunnelsSchema.optional(),
  publish: z.array(publishSkeleton).min(1, 'give at least one publisher, or leave publish out').optional(),
  // prefault, not default: the empty object is parsed so the inner defaults apply.
  options: optionsSchema.prefault({}),
});

export type SkeletonOutput = z.output<typeof specSkeleton>;
