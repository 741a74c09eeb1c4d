import Docker from 'dockerode';
import { DEFAULT_IMAGE } from '../host-schema.js';

/** Whether a daemon answers and the tools image is built (tests that need them run only then; CI makes sure). */
export async function dockerReady(): Promise<boolean> {
  const docker = new Docker();
  try {
    await docker.version();
    await docker.getImage(DEFAULT_IMAGE).inspect();
    return true;
  } catch {
    return false;
  }
}
