import { NetbenchError } from '@netbench/plugin-api';

/**
 * `netbench import` was given input it cannot start with: a file that
 * cannot be read, a format no installed tool recognises (or several do), a
 * tool that is not installed. Nothing was written. Exit code 2, as for an
 * invalid spec.
 */
export class ImportError extends NetbenchError {
  override readonly name: string = 'ImportError';
  override readonly exitCode: number = 2;
}
