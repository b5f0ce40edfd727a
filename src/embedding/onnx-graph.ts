/**
 * A minimal writer of ONNX models (the protobuf messages ModelProto, GraphProto, NodeProto, TensorProto,
 * ValueInfoProto and AttributeProto of onnx/onnx.proto), enough to express a small transformer whose weights come
 * from a safetensors file, so that onnxruntime runs it without any conversion tool at setup.
 */

class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const bytes: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v !== 0n);
    this.parts.push(Buffer.from(bytes));
  }

  private key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number): this {
    this.key(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, 5);
    const buf = Buffer.alloc(4);
    buf.writeFloatLE(value, 0);
    this.parts.push(buf);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.varint(value.length);
    this.parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, inner: ProtoWriter): this {
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export type Attribute = number | readonly number[] | { readonly float: number };

const FLOAT = 1;
const INT64 = 7;

/** Builds a graph node by node; `constant` and `weight` add initializers, `op` a node, each returns its output name. */
export class OnnxGraph {
  private readonly nodes: ProtoWriter[] = [];
  private readonly initializers: ProtoWriter[] = [];
  private readonly inputs: ProtoWriter[] = [];
  private readonly outputs: ProtoWriter[] = [];
  private counter = 0;

  private static valueInfo(name: string, elemType: number, dims: ReadonlyArray<number | string>): ProtoWriter {
    const shape = new ProtoWriter();
    for (const dim of dims) {
      const d = new ProtoWriter();
      if (typeof dim === 'number') d.int(1, dim);
      else d.string(2, dim);
      shape.message(1, d);
    }
    const tensorType = new ProtoWriter().int(1, elemType).message(2, shape);
    return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
  }

  input(name: string, type: 'float' | 'int64', dims: ReadonlyArray<number | string>): string {
    this.inputs.push(OnnxGraph.valueInfo(name, type === 'float' ? FLOAT : INT64, dims));
    return name;
  }

  output(name: string, dims: ReadonlyArray<number | string>): void {
    this.outputs.push(OnnxGraph.valueInfo(name, FLOAT, dims));
  }

  weight(name: string, dims: readonly number[], data: Float32Array): string {
    if (dims.reduce((a, b) => a * b, 1) !== data.length)
      throw new Error(`${name}: ${data.length} values for ${dims.join('x')}`);
    const tensor = new ProtoWriter();
    for (const dim of dims) tensor.int(1, dim);
    tensor
      .int(2, FLOAT)
      .string(8, name)
      .bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.initializers.push(tensor);
    return name;
  }

  /** A constant: int64 when `type` says so (shapes), float otherwise. */
  constant(
    values: readonly number[],
    type: 'float' | 'int64' = 'float',
    dims: readonly number[] = [values.length],
  ): string {
    const name = `const_${this.counter++}`;
    const tensor = new ProtoWriter();
    for (const dim of dims) tensor.int(1, dim);
    if (type === 'float') {
      tensor
        .int(2, FLOAT)
        .string(8, name)
        .bytes(9, new Uint8Array(Float32Array.from(values).buffer));
    } else {
      const raw = new BigInt64Array(values.map((v) => BigInt(v)));
      tensor.int(2, INT64).string(8, name).bytes(9, new Uint8Array(raw.buffer));
    }
    this.initializers.push(tensor);
    return name;
  }

  op(type: string, inputs: readonly string[], attributes: Record<string, Attribute> = {}, output?: string): string {
    const out = output ?? `${type.toLowerCase()}_${this.counter++}`;
    const node = new ProtoWriter();
    for (const input of inputs) node.string(1, input);
    node.string(2, out).string(3, `n${this.counter++}`).string(4, type);
    for (const [name, value] of Object.entries(attributes)) {
      const attr = new ProtoWriter().string(1, name);
      if (typeof value === 'number') attr.int(3, value).int(20, 2);
      else if (Array.isArray(value)) {
        for (const v of value as readonly number[]) attr.int(8, v);
        attr.int(20, 7);
      } else attr.float(2, (value as { float: number }).float).int(20, 1);
      node.message(5, attr);
    }
    this.nodes.push(node);
    return out;
  }

  /** The serialised ModelProto (IR version 8, the default opset at `opset`). */
  model(opset: number): Buffer {
    const graph = new ProtoWriter();
    for (const node of this.nodes) graph.message(1, node);
    graph.string(2, 'citegraph');
    for (const init of this.initializers) graph.message(5, init);
    for (const input of this.inputs) graph.message(11, input);
    for (const output of this.outputs) graph.message(12, output);
    return new ProtoWriter()
      .int(1, 8)
      .string(2, 'citegraph')
      .message(7, graph)
      .message(8, new ProtoWriter().string(1, '').int(2, opset))
      .finish();
  }
}
