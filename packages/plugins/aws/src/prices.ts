import { readFileSync } from 'node:fs';
import { z } from '@netbench/plugin-api';

const perGb = z.strictObject({ default: z.number().min(0), from: z.record(z.string(), z.number().min(0)).default({}), pairs: z.record(z.string(), z.number().min(0)).default({}) });

/** The shipped table (`prices/aws-prices.json`) and what a user file may override. */
export const priceTableSchema = z.strictObject({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  source: z.string().optional(),
  currency: z.literal('USD').default('USD'),
  instanceTypes: z.record(z.string(), z.strictObject({ vcpus: z.int().positive(), gbps: z.number().positive(), arch: z.enum(['x86_64', 'arm64']) })),
  /** region → instance type → on-demand Linux $/hour. */
  hourly: z.record(z.string(), z.record(z.string(), z.number().min(0))),
  egress: z.strictObject({
    sameZonePerGb: z.number().min(0),
    /** Charged on both sides of an inter-AZ flow (out and in). */
    interZonePerGbEachWay: z.number().min(0),
    /** Source region pays; `pairs` keys are `from>to`. */
    interRegionPerGb: perGb,
    internetPerGb: perGb,
  }),
});

export type PriceTable = z.output<typeof priceTableSchema>;

/** A user file is a partial table: its entries replace or extend the shipped ones. */
const overrideSchema = z.strictObject({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  source: z.string().optional(),
  instanceTypes: priceTableSchema.shape.instanceTypes.optional(),
  hourly: priceTableSchema.shape.hourly.optional(),
  egress: z
    .strictObject({
      sameZonePerGb: z.number().min(0).optional(),
      interZonePerGbEachWay: z.number().min(0).optional(),
      interRegionPerGb: perGb.partial().optional(),
      internetPerGb: perGb.partial().optional(),
    })
    .optional(),
});

const SHIPPED = new URL('../prices/aws-prices.json', import.meta.url);
const cache = new Map<string, PriceTable>();

/** The shipped price table, with `overrideFile` (e.g. `$NETBENCH_AWS_PRICES`) merged over it. */
export function loadPriceTable(overrideFile?: string): PriceTable {
  const key = overrideFile ?? '';
  const known = cache.get(key);
  if (known) return known;
  const base = priceTableSchema.parse(JSON.parse(readFileSync(SHIPPED, 'utf8')));
  let table = base;
  if (overrideFile) {
    let parsed: z.output<typeof overrideSchema>;
    try {
      parsed = overrideSchema.parse(JSON.parse(readFileSync(overrideFile, 'utf8')));
    } catch (error) {
      throw new Error(`price file ${overrideFile}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    table = mergePrices(base, parsed);
  }
  cache.set(key, table);
  return table;
}

function mergePrices(base: PriceTable, override: z.output<typeof overrideSchema>): PriceTable {
  const hourly: PriceTable['hourly'] = { ...base.hourly };
  for (const [region, prices] of Object.entries(override.hourly ?? {})) hourly[region] = { ...base.hourly[region], ...prices };
  const egress = override.egress ?? {};
  const mergeGb = (a: PriceTable['egress']['internetPerGb'], b: Partial<PriceTable['egress']['internetPerGb']> | undefined) => ({
    default: b?.default ?? a.default,
    from: { ...a.from, ...b?.from },
    pairs: { ...a.pairs, ...b?.pairs },
  });
  return {
    ...base,
    date: override.date ?? base.date,
    source: override.source ?? base.source,
    instanceTypes: { ...base.instanceTypes, ...override.instanceTypes },
    hourly,
    egress: {
      sameZonePerGb: egress.sameZonePerGb ?? base.egress.sameZonePerGb,
      interZonePerGbEachWay: egress.interZonePerGbEachWay ?? base.egress.interZonePerGbEachWay,
      interRegionPerGb: mergeGb(base.egress.interRegionPerGb, egress.interRegionPerGb),
      internetPerGb: mergeGb(base.egress.internetPerGb, egress.internetPerGb),
    },
  };
}

const ARM_FAMILY_RE = /^(?:a1|[a-z]+\d+g[a-z]*)\./;

/** vCPUs, bandwidth and architecture of a type; architecture guessed from the family name when the table lacks it. */
export function instanceTypeFacts(table: PriceTable, type: string): { vcpus?: number; gbps?: number; arch: 'x86_64' | 'arm64' } {
  const known = table.instanceTypes[type];
  if (known) return known;
  return { arch: ARM_FAMILY_RE.test(type) ? 'arm64' : 'x86_64' };
}
