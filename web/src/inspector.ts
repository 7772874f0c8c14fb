// inspector.ts - the entry '@laige/sim/inspector': a live inspector users
// mount in their own page (docs/inspector.md). mountInspector(element,
// source) over worldSource(world, history?) (this page's world, answered by
// the core's inspector in wasm) or remoteSource(url | channel) (a native
// laige-peer: the same core code answering natively).
export { mountInspector, type InspectorView, type InspectorViewOptions } from './inspector/view.js';
export { worldSource, type InspectorSource } from './inspector/world_source.js';
export { remoteSource, type LineChannel, type RemoteSourceOptions } from './inspector/remote_source.js';
export { KeyframeHistory, type InspectorHistory, type KeyframeHistoryOptions } from './inspector/history.js';
export {
  ANSWER_KEYS, INSPECT_PROTOCOL_VERSION, MAX_INSPECT_PAGE, MAX_INSPECT_REQUEST_BYTES, inspectRequest,
  type InspectAnswer, type InspectArchetype, type InspectChanges, type InspectComponent, type InspectEntitiesPage,
  type InspectEntity, type InspectEntityRow, type InspectField, type InspectGuardrails, type InspectHistoryInfo,
  type InspectSummary, type InspectSystem,
} from './inspector/protocol.js';
