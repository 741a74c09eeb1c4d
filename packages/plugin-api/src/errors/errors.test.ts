import { describe, expect, it } from 'vitest';
import {
  CapacityError,
  ERROR_BRAND,
  errorExitCode,
  hasErrorKind,
  isNetbenchError,
  isRetryable,
  NetbenchError,
  PluginError,
  QuotaError,
  RetryableError,
  ToolMissingError,
} from './index.js';

// An error thrown by a plugin that bundles its own copy of this package: another class, the same global brand.
class ForeignRetryable extends Error {
  readonly [ERROR_BRAND] = ['netbench', 'retryable'];
  readonly exitCode = 5;
}
class ForeignToolMissing extends Error {
  readonly [ERROR_BRAND] = ['netbench', 'tool-missing'];
}

describe('errors are recognised by brand, not by class identity', () => {
  it('recognises errors of another copy of the package, with instanceof and the brand checks', () => {
    const foreign = new ForeignRetryable('port in use');
    expect(foreign instanceof RetryableError).toBe(true);
    expect(foreign instanceof NetbenchError).toBe(true);
    expect(foreign instanceof QuotaError).toBe(false);
    expect(isRetryable(foreign)).toBe(true);
    expect(isNetbenchError(foreign)).toBe(true);
    expect(errorExitCode(foreign)).toBe(5);
    expect(new ForeignToolMissing('no ping') instanceof ToolMissingError).toBe(true);
    expect(isRetryable(new PluginError('x', 'run', foreign))).toBe(true);
  });

  it('keeps the class hierarchy and refuses what is not a netbench error', () => {
    expect(new CapacityError('zone full') instanceof RetryableError).toBe(true);
    expect(hasErrorKind(new CapacityError('zone full'), 'quota')).toBe(false);
    expect(new ToolMissingError('ping', 'a') instanceof RetryableError).toBe(false);
    expect(new Error('plain') instanceof NetbenchError).toBe(false);
    expect(isRetryable(new Error('plain'))).toBe(false);
    expect(isNetbenchError({ [ERROR_BRAND]: 'netbench' })).toBe(false);
    expect(errorExitCode(new Error('plain'), 7)).toBe(7);
  });

  it('lets a subclass outside the package keep ordinary instanceof', () => {
    class SpecLikeError extends NetbenchError {}
    expect(new SpecLikeError('bad') instanceof SpecLikeError).toBe(true);
    expect(new NetbenchError('other') instanceof SpecLikeError).toBe(false);
    expect(new SpecLikeError('bad') instanceof NetbenchError).toBe(true);
  });
});
