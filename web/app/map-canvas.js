// A network map drawn by sigma (WebGL) at the places the server laid out (ForceAtlas2 + overlap removal): discs
// coloured by cluster or by mean year, labels placed clear of each other and of the frame (re-placed on zoom), zoom,
// pan, search and highlight of a node's neighbours. What is drawn is published on window.__citegraphMap for the
// picture tests.
import Graph from 'graphology';
import React, { useEffect, useRef } from 'react';
import Sigma from 'sigma';
import { labelOrder, nodeColour, placeLabels, shortLabel, yearSpan } from '../../src/analytics/map-drawing.ts';

const h = React.createElement;

const LABEL_SIZE = 12;
const LABEL_FONT = 'Helvetica, Arial, sans-serif';
const FADED = '#e4e4e4';

/** Draws a label at the offset the placement chose (sigma calls it for every node whose reducer gives a label). */
function drawLabel(context, data, settings) {
  if (!data.label || data.labelDx === undefined) return;
  context.fillStyle = '#222';
  context.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
  context.fillText(data.label, data.x + data.labelDx, data.y + data.labelDy);
}

/** The hovered or selected node's full label on a white box (sigma's hover layer). */
function drawHover(context, data, settings) {
  if (!data.fullLabel) return;
  context.font = `bold ${settings.labelSize}px ${settings.labelFont}`;
  const width = context.measureText(data.fullLabel).width;
  const left = data.x + data.size + 4;
  context.fillStyle = 'rgba(255,255,255,0.95)';
  context.fillRect(left - 2, data.y - settings.labelSize / 2 - 4, width + 4, settings.labelSize + 8);
  context.fillStyle = '#000';
  context.fillText(data.fullLabel, left, data.y + settings.labelSize / 3);
}

/**
 * The map: `network` as the `network` query gives it (laid out), `colouring` 'cluster' or 'year', `selected` the id of
 * the node whose neighbours are highlighted (clicking a node selects it, clicking the background clears it).
 */
export function MapCanvas({ network, colouring, selected, onSelect }) {
  const container = useRef(null);
  const sigmaRef = useRef(null);
  const state = useRef({ selected: null, placed: new Map(), neighbours: new Set() });

  useEffect(() => {
    const frame = network.frame;
    const graph = new Graph({ type: network.directed ? 'directed' : 'undirected', multi: false });
    const span = yearSpan(network.nodes);
    for (const node of network.nodes) {
      graph.addNode(node.id, {
        // Sigma's y axis points up; the server's frame, like SVG, down.
        x: node.x,
        y: frame.height - node.y,
        size: node.size,
        color: nodeColour(node, colouring === 'year' ? 'YEAR' : 'CLUSTER', span),
        fullLabel: node.label,
      });
    }
    const heaviest = Math.max(1, ...network.edges.map((e) => e.weight));
    for (const edge of network.edges) {
      if (!edge.backbone || !graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
      if (graph.hasEdge(edge.source, edge.target)) continue;
      graph.addEdge(edge.source, edge.target, {
        size: 0.4 + 2 * (edge.weight / heaviest),
        color: '#c8c8c8',
        type: network.directed ? 'arrow' : 'line',
      });
    }
    const sigma = new Sigma(graph, container.current, {
      itemSizesReference: 'positions',
      zoomToSizeRatioFunction: (ratio) => ratio,
      stagePadding: 0,
      labelSize: LABEL_SIZE,
      labelFont: LABEL_FONT,
      labelWeight: 'normal',
      labelRenderedSizeThreshold: 0,
      labelDensity: 10,
      defaultDrawNodeLabel: drawLabel,
      defaultDrawNodeHover: drawHover,
      zIndex: true,
      nodeReducer: (id, data) => {
        const { selected: chosen, placed, neighbours } = state.current;
        const place = placed.get(id);
        const faded = chosen !== null && id !== chosen && !neighbours.has(id);
        return {
          ...data,
          color: faded ? FADED : data.color,
          zIndex: faded ? 0 : 1,
          label: place && !faded ? place.text : null,
          forceLabel: Boolean(place && !faded),
          labelDx: place?.dx,
          labelDy: place?.dy,
        };
      },
      edgeReducer: (edge, data) => {
        const { selected: chosen } = state.current;
        if (chosen === null) return data;
        const [a, b] = graph.extremities(edge);
        return a === chosen || b === chosen ? { ...data, color: '#777', zIndex: 1 } : { ...data, hidden: true };
      },
    });
    // The whole frame fills the canvas, whatever the nodes' extent, as the SVG export draws it.
    sigma.setCustomBBox({ x: [0, frame.width], y: [0, frame.height] });
    sigma.refresh();
    sigmaRef.current = sigma;
    // Sigma fits the frame's longer side; zoom out just enough that the whole frame, margins included, shows.
    const fitFrame = () => {
      const { width, height } = sigma.getDimensions();
      const camera = sigma.getCamera();
      const base = { ...camera.getState(), ratio: 1 };
      const a = sigma.graphToViewport({ x: 0, y: 0 }, { cameraState: base });
      const b = sigma.graphToViewport({ x: frame.width, y: frame.height }, { cameraState: base });
      const ratio = Math.max(Math.abs(b.x - a.x) / width, Math.abs(b.y - a.y) / height, 0.01);
      camera.setState({ x: 0.5, y: 0.5, angle: 0, ratio });
    };
    fitFrame();
    const measure = document.createElement('canvas').getContext('2d');
    measure.font = `normal ${LABEL_SIZE}px ${LABEL_FONT}`;

    /** Places the labels for the current camera, in the canvas's pixels, and publishes what is drawn. */
    const placeAll = () => {
      const { width, height } = sigma.getDimensions();
      const nodes = labelOrder(network.nodes).map((node) => {
        const display = sigma.getNodeDisplayData(node.id);
        const at = sigma.framedGraphToViewport(display);
        return { node, x: at.x, y: at.y, r: sigma.scaleSize(display.size) };
      });
      const candidates = nodes.map(({ node, x, y, r }) => {
        const text = shortLabel(node.label);
        return { id: node.id, x, y, r, width: measure.measureText(text).width, height: LABEL_SIZE, text };
      });
      const placed = placeLabels(candidates, { width, height, margin: 2 });
      const byId = new Map(candidates.map((c) => [c.id, c]));
      state.current.placed = new Map(
        placed.map((p) => {
          const c = byId.get(p.id);
          // Offsets from the node's centre to the text's start and baseline.
          return [p.id, { text: c.text, dx: p.left - c.x, dy: p.top + LABEL_SIZE * 0.82 - c.y, box: p }];
        }),
      );
      window.__citegraphMap = {
        kind: network.kind,
        width,
        height,
        nodes: nodes.map(({ node, x, y, r }) => ({ id: node.id, x, y, r, cluster: node.cluster })),
        labels: placed,
        camera: sigma.getCamera().getState(),
        selected: state.current.selected,
        neighbours: [...state.current.neighbours],
      };
      sigma.refresh({ skipIndexation: true });
    };
    let timer = null;
    const onCamera = () => {
      clearTimeout(timer);
      timer = setTimeout(placeAll, 80);
    };
    sigma.getCamera().on('updated', onCamera);
    sigma.on('clickNode', ({ node }) => onSelect(node));
    sigma.on('clickStage', () => onSelect(null));
    placeAll();
    return () => {
      clearTimeout(timer);
      sigma.kill();
      sigmaRef.current = null;
      window.__citegraphMap = undefined;
    };
  }, [network, colouring]);

  // Selection: the node, its neighbours and their links stay; the rest fades. The camera moves to a node picked by
  // search.
  useEffect(() => {
    const sigma = sigmaRef.current;
    if (!sigma) return;
    const graph = sigma.getGraph();
    const chosen = selected && graph.hasNode(selected) ? selected : null;
    state.current.selected = chosen;
    state.current.neighbours = new Set(chosen ? graph.neighbors(chosen) : []);
    if (window.__citegraphMap) {
      window.__citegraphMap.selected = chosen;
      window.__citegraphMap.neighbours = [...state.current.neighbours];
    }
    sigma.refresh({ skipIndexation: true });
  }, [selected, network, colouring]);

  return h('div', {
    ref: container,
    className: 'map-canvas',
    role: 'img',
    'aria-label': `${network.kind.toLowerCase().replace(/_/g, ' ')} map: ${network.nodes.length} nodes`,
  });
}
