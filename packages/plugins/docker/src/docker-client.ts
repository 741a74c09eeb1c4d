import { UnsupportedError } from '@netbench/plugin-api';
import Docker from 'dockerode';

/**
 * The Engine API client. docker-modem reads DOCKER_HOST (unix://, tcp://,
 * ssh://), DOCKER_TLS_VERIFY and DOCKER_CERT_PATH as the docker CLI does;
 * without them it talks to /var/run/docker.sock.
 */
export function dockerClient(): Docker {
  return new Docker();
}

/** Where the daemon is, for messages. */
export function daemonAddress(): string {
  return process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
}

/** A 404 from the Engine API: the object is not there. */
export function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { statusCode?: number }).statusCode === 404;
}

/** The daemon's version, or an error that says how to start it. */
export async function daemonVersion(docker: Docker): Promise<{ version: string; apiVersion: string; kernel: string }> {
  try {
    const info = await docker.version();
    return { version: info.Version, apiVersion: info.ApiVersion, kernel: info.KernelVersion };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnsupportedError(
      `docker: the Docker daemon at ${daemonAddress()} does not answer (${reason}). ` +
        'To fix: start it (systemctl start docker, or scripts/dockerd.sh start), run netbench as a user who may use the socket (root or the docker group), or set DOCKER_HOST.',
    );
  }
}
