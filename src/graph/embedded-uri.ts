import type { Neo4jSettings } from '../config/settings';

/** The Bolt URI of the embedded server (loopback only). */
export function embeddedBoltUri(settings: Pick<Neo4jSettings, 'embeddedPort'>): string {
  return `bolt://127.0.0.1:${settings.embeddedPort}`;
}
