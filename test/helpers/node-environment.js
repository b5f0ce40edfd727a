'use strict';
// Jest runs each test file in its own realm, so a typed array made there fails onnxruntime-node's `instanceof`
// checks against the main realm's constructors. The tests get the main realm's typed arrays.
const { TestEnvironment } = require('jest-environment-node');

const SHARED = [
  'Float32Array',
  'Float64Array',
  'Int8Array',
  'Uint8Array',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'ArrayBuffer',
];

class CitegraphEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}

module.exports = CitegraphEnvironment;
