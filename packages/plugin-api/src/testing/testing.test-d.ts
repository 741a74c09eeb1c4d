// Type tests for the public SDK surfaces around the contract: the
// conformance kit's options.
import { describe, expectTypeOf, it } from 'vitest';
import type { ToolPlugin, TrialContext, TrialRun } from '../plugin/tool.js';
import type { CloudConformanceOptions, ConformanceCheck, PublisherConformanceOptions, TestTrialContext, ToolConformanceOptions } from './index.js';
import { cloudConformance, labTrial, publisherConformance, testTrialContext, toolConformance } from './index.js';

describe('the conformance kit', () => {
  it('takes any value (it checks the brand itself) and returns checks a test runner can register', () => {
    expectTypeOf(toolConformance).parameter(0).toBeUnknown();
    expectTypeOf(toolConformance).returns.toEqualTypeOf<ConformanceCheck[]>();
    expectTypeOf<ConformanceCheck['run']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(cloudConformance).parameter(1).toEqualTypeOf<CloudConformanceOptions>();
    expectTypeOf(publisherConformance).parameter(1).toEqualTypeOf<PublisherConformanceOptions>();
  });

  it('requires fixtures for tools and a module plus gone resources for clouds', () => {
    // @ts-expect-error: a tool's parser is checked against captured fixtures
    const noFixtures: ToolConformanceOptions = {};
    // @ts-expect-error: teardown is checked in a fresh process, which imports the built module
    const noModule: CloudConformanceOptions = { goneResources: [] };
    void noFixtures;
    void noModule;
    expectTypeOf<ToolConformanceOptions['fixtures']['dir']>().toEqualTypeOf<string | URL>();
  });
});

describe('the lab helpers', () => {
  it("give a TrialContext and the TrialRun a tool plugin's run takes", () => {
    expectTypeOf(testTrialContext).parameters.toEqualTypeOf<[timeoutMs?: number, trialId?: string, specDir?: string]>();
    expectTypeOf<TestTrialContext['ctx']>().toEqualTypeOf<TrialContext>();
    expectTypeOf(labTrial).returns.resolves.toEqualTypeOf<TrialRun>();
    expectTypeOf(labTrial<{ count: number }>)
      .parameter(0)
      .toEqualTypeOf<ToolPlugin<{ count: number }>>();
  });
});
