import type { ServerResponse } from 'node:http';
import { ErrorCode } from '../../errors';
import { ASSETS, readAsset } from '../explorer';
import { HttpProblem, sendProblem } from './replies';

/** A built browser asset (web/build), or 404 naming how to build it. */
export function sendAsset(response: ServerResponse, name: string): void {
  const body = readAsset(name);
  if (!body) {
    sendProblem(
      response,
      new HttpProblem(
        404,
        ErrorCode.NOT_FOUND,
        Object.hasOwn(ASSETS, name)
          ? `the browser assets are not built: run npm run build (or node scripts/build-web.js)`
          : `no asset ${name.slice(0, 100)}`,
      ),
    );
    return;
  }
  response.writeHead(200, {
    'content-type': ASSETS[name]!,
    'content-length': body.length,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  response.end(body);
}
