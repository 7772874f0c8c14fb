// error_messages.ts - the plain-words sentence of every reason the C++ core
// gives a failure (docs/errors.md#reasons). A LaigeError built from a core
// failure has the message "<call>: <sentence>", then the 5-field line. The
// sentence is built from the failure's fields only; a reason missing here
// (a newer core) still reads, as its name and fields.

/** The fields of one failure, by name. */
type Fields = Readonly<Record<string, string | number>>;

/** `'v'` for a field value (names read as names). */
function q(v: string | number | undefined): string {
  return `'${v ?? ''}'`;
}

/** The comma-separated list `a,b,c` as `'a' -> 'b' -> 'c'`. */
function chain(v: string | number | undefined): string {
  const names = String(v ?? '').split(',').filter((n) => n.length > 0);
  return names.length === 0 ? "''" : [...names, names[0]].map((n) => `'${n}'`).join(' -> ');
}

/** The broken name rule (a name's `reason` field, docs/typescript.md#names) in words. */
function nameRule(f: Fields): string {
  switch (f.reason) {
    case 'null': return 'is missing';
    case 'empty': return 'is empty';
    case 'too_long': return `is ${f.length} bytes, over the ${f.max_length} a name may have`;
    case 'control_char': return 'holds a control character (NUL, newline, tab, ...)';
    case 'comma': return 'holds a comma';
    case 'surrounding_space': return 'starts or ends with a space';
    default: return `breaks the naming rules (${f.reason ?? 'invalid'})`;
  }
}

/** What the `callback` field of tick_inside_callback names, in words. */
function callbackWords(c: string | number | undefined): string {
  return c === 'each' ? 'an each callback' : c === 'defer' ? 'a World.defer callback' : c === 'loop_hook' ? "a game loop's input or onTick callback"
    : c === 'rollback_hook' ? "a rollback session's own hook" : c === 'combine' ? "a rollback session's combine function" : "a system's run";
}

/**
 * @internal The fix of a system_io_violation: the exact declaration the
 * call needs (docs/typescript.md#enforced-access). A structural change (an
 * add of a component the entity lacks, a remove, a destroy) and a read need
 * the component declared, 'read' is enough; a value write and an add over
 * a value the entity has need 'write'. `overwrite` undefined: not known
 * whether the add overwrites.
 */
export function ioDeclarationFix(component: string, access: string, overwrite?: boolean): string {
  const c = component;
  if (access === 'write' || (access === 'add' && overwrite === true)) {
    return `declare it 'write': [${c}, 'write'] in the system's io (or ${c}.write in one of its queries)`;
  }
  if (access === 'add') {
    return overwrite === false
      ? `declare it: [${c}, 'read'] in the system's io is enough to add it to an entity that lacks it (a structural change needs the declaration, not 'write')`
      : `declare it: [${c}, 'read'] in the system's io is enough to add it to an entity that lacks it, [${c}, 'write'] to overwrite one it has`;
  }
  const what = access === 'remove' ? 'to remove it' : access === 'destroy' ? 'to destroy an entity that has it' : 'to read it';
  return `declare it: [${c}, 'read'] in the system's io (or a query term naming it) is enough ${what}`;
}

/** The deferred form of a structural change inside an each (iteration_mutation). */
function deferredCall(f: Fields): string {
  const call = f.operation === 'destroy' ? 'destroy(e)' : f.operation === 'remove' ? `remove(e, ${f.component})` : `add(e, ${f.component}, value)`;
  return `record it with world.commands.${call} (ctx.commands.${call} inside a system) to apply it after the walk (docs/commands.md)`;
}

/** "side a: " for the diff driver's two sides, "" for a single run. */
function side(f: Fields): string {
  return f.side === 'a' || f.side === 'b' ? `log ${f.side}: ` : '';
}

const MESSAGES: Readonly<Record<string, (f: Fields) => string>> = {
  // --- systems and the scheduler (docs/systems.md, docs/scheduler.md)
  name_invalid: (f) => `the system name ${nameRule(f)}; a name has 1..63 bytes, no control character, no comma, no space at either end`,
  run_invalid: (f) => `system ${q(f.system)} has no run function`,
  budget_invalid: (f) => `system ${q(f.system)} declares a budget of ${f.budget_raw} (raw Q16.16); the budget must be positive`,
  dep_spec_invalid: (f) =>
    `system ${q(f.system)}: its dependsOn list is malformed at entry ${f.position} (${f.reason === 'empty_token' ? 'an empty name' : f.reason === 'too_many' ? 'more than 16 names' : 'a name listed twice'})`,
  duplicate: (f) => `a system named ${q(f.system)} is registered already (as system ${f.existing_system_id}); system names are unique per world`,
  io_invalid: (f) => `system ${q(f.system)}: io entry ${f.position} is malformed (${f.reason})`,
  io_unregistered: (f) => `system ${q(f.system)}: io entry ${f.position} names component id ${f.component_id}, which this world has not registered`,
  io_duplicate: (f) => `system ${q(f.system)} declares ${q(f.component)} twice; declare each component once ('write' when the system writes it)`,
  budget_exhausted: (f) => `system ${q(f.system)} does not fit: a world holds at most ${f.max_systems} systems`,
  system_unknown: (f) => `no system has id ${f.id} (this world has ${f.systems})`,
  dep_missing: (f) => `system ${q(f.system)} depends on ${q(f.missing_dep)}, but no system of that name is registered (names are case-sensitive)`,
  dependency_cycle: (f) => `the systems' dependsOn lists form a cycle: ${chain(f.cycle)}; remove one dependency of the cycle`,
  double_writer: (f) =>
    `systems ${q(f.first_writer)} and ${q(f.second_writer)} both write ${q(f.component)}; only one system may write a component`,
  tick_inside_callback: (f) => `a tick cannot start inside ${callbackWords(f.callback)} on the same world; return first and run it after the call`,

  schedule_inside_tick: () => 'the systems cannot be scheduled while a tick of this world is running; schedule before or after the tick',
  run_nested: (f) => `a tick (${f.tick}) cannot start while a system of this world is running`,
  schedule_stale: (f) => `the schedule covers ${f.scheduled_systems} systems but ${f.current_systems} are registered; schedule again after the last registration`,
  schedule_invalid: (f) => `the schedule is corrupt at slot ${f.slot} (system id ${f.id})`,
  system_io_violation: (f) => `system ${q(f.system)} may not ${f.access} ${q(f.component)}: its io declares it ${f.declared === 'none' ? 'not at all' : `'${f.declared}'`}; ${ioDeclarationFix(String(f.component), String(f.access))}`,
  world_moved_from: () => 'the world was moved from and is empty',

  // --- entities, components, iteration (docs/entity.md, docs/archetype.md, docs/query.md)
  capacity_invalid: (f) => `a capacity of ${f.capacity} is above the ${f.max_capacity} entity ids that exist`,
  entity_budget_exhausted: (f) => `all ${f.capacity} entities of the world's capacity are live; destroy some first, or create the world with a larger capacity`,
  stale_entity_access: (f) => `Entity(${f.entity_id}, ${f.generation}) is not a live entity of this world (destroyed, cleared or never issued)`,
  stale_entity_destroy: (f) => `Entity(${f.entity_id}, ${f.generation}) is not alive: it was destroyed already, cleared, or never issued`,
  component_unregistered: (f) => `component ${f.component !== '' ? q(f.component) : `id ${f.component_id}`} is not registered in this world`,
  component_size_mismatch: (f) => `${q(f.component)} takes ${f.expected_size} bytes, ${f.size} were given`,
  component_limit: (f) => `entity ${f.entity_id} already has ${f.components} components (at most ${f.max_components}); ${q(f.component)} does not fit`,
  archetype_budget: (f) => `adding or removing ${q(f.component)} needs a new component combination, and the world already has ${f.archetype_count} (at most ${f.max_archetypes})`,
  archetype_alloc_failed: () => 'the archetype storage could not be allocated (out of memory)',
  iteration_mutation: (f) =>
    `${f.operation === 'destroy' ? 'destroying' : f.operation === 'remove' ? `removing ${q(f.component)} from` : `adding ${q(f.component)} to`} entity ${f.entity_id} would move a row of archetype ${f.archetype_id}, which the live each is walking; ${deferredCall(f)}`,
  iteration_clear: (f) => `clear() would destroy the ${f.rows} rows of archetype ${f.archetype_id}, which the live each is walking; call clear() after the each returns`,
  iteration_write_during_read: (f) => `the live each declared ${q(f.component)} 'read'; writing it (entity ${f.entity_id}) is rejected: declare it 'write' in the each (${f.component}.write in the query, 'write' in World.each's access list)`,
  query_limit_exceeded: (f) => `this world holds ${f.max} live queries (the most, or its memory ran out); declare a query once and keep it rather than one per call (a query is freed when it is garbage collected or the world is disposed)`,
  iteration_nested: () => "another each is live on this world; an each cannot start inside another: keep what the outer callback finds (entities, values) and walk after it returns, or make it one query",
  iteration_invalid: (f) => `the query is malformed (${f.reason}, ${f.count} components)`,
  component_name_invalid: (f) =>
    `the component name ${q(f.name)} ${f.reason !== undefined ? nameRule(f) : `is ${f.length} bytes`}; a name has 1..${f.max_length ?? 63} bytes, no control character, no space at either end`,
  component_desc_invalid: (f) =>
    `the layout of ${q(f.name)} is rejected: ${f.reason}${f.field_name !== undefined && f.field_name !== '' ? ` at field ${q(f.field_name)}` : ''} (a C layout without padding is required: order fields largest kind first, or add explicit padding fields)`,
  component_duplicate: (f) => `a component named ${q(f.name)} is registered already (id ${f.component_id}); register each component once`,
  component_budget: (f) => `${q(f.name)} does not fit: the world already has ${f.component_count} component types (at most ${f.max_components})`,
  component_unknown: (f) => `no component has id ${f.component_id} (this world has ${f.components})`,

  // --- the game loop (docs/game_loop.md)
  tick_rate_invalid: (f) => `a tick rate of ${f.tick_rate_hz} Hz is outside ${f.min_hz}..${f.max_hz}`,
  catchup_invalid: () => 'maxCatchUpTicks must be at least 1',
  loop_moved_from: () => 'the loop was moved from and drives no world',
  tick_input_failed: (f) => `the input callback failed for tick ${f.tick}`,
  tick_ended: (f) => `the frame was ended after tick ${f.tick} by its onTick callback or a failing system`,

  // --- replays (docs/replay.md)
  record_start_failed: (f) =>
    f.reason === 'cap_too_small' ? `a size cap of ${f.max_bytes} bytes is below the ${f.min_bytes} a log needs`
      : f.reason === 'empty_path' ? 'the recording needs a path' : `the recording file could not be created (${f.reason})`,
  record_failed: (f) =>
    f.reason === 'size_cap' ? `the recording reached its size cap of ${f.max_bytes} bytes after ${f.frames} frames; it is discarded`
      : f.reason === 'taken' ? 'the recording was taken before it was finished'
      : `the recording failed after ${f.frames} frames (${f.reason}) and is discarded`,
  record_after_finish: (f) => `the recording is finished (${f.frames} frames); a published log is immutable`,
  recorder_finished: () => 'the recording is finished; a published log is immutable (start a new recording)',
  frame_too_large: (f) => `a frame of ${f.length} bytes is over the 1 MiB (1048576 bytes) a frame may hold`,
  replay_size_cap: (f) => `the recording holds ${f.bytes} bytes and the next frame would pass its size cap of ${f.max_bytes} bytes`,
  recorder_moved_from: () => 'the recorder was moved from and records nothing',
  parse_rejected: (f) => `the bytes are not a well-formed replay log: ${f.reason} at byte ${f.offset}`,
  load_failed: (f) => `the replay log could not be read (${f.reason}${f.path !== undefined ? ` ${q(f.path)}` : ''})`,
  load_oversize: (f) => `the replay log is larger than the ${f.max_bytes}-byte read cap`,
  log_invalid: (f) => `${side(f)}frame ${f.frame_index} is inconsistent (tick ${f.tick}, ${f.size} bytes)`,
  config_world_mismatch: (f) =>
    `${side(f)}the replay world does not match the replay options (${f.mismatch === 'ticks_run' ? `it already ran ${f.ticks_run} ticks` : `its ${f.mismatch} differs`})`,
  identity_mismatch: (f) => `the log was recorded under another setup than the world built from the options (differing: ${f.mismatch})`,
  diff_identity_mismatch: (f) =>
    `the logs were recorded under another setup (${[f.a_mismatch ? `log a: ${f.a_mismatch}` : '', f.b_mismatch ? `log b: ${f.b_mismatch}` : ''].filter((x) => x).join('; ')})`,
  determinism_disabled: () => 'a replay needs a deterministic world and config',
  diff_determinism_disabled: (f) => `a replay diff needs deterministic worlds (log a: ${f.a_enabled}, log b: ${f.b_enabled})`,
  diff_schema_mismatch: (f) => `the two worlds register different components (${f.a_components} and ${f.b_components})`,
  run_failed: (f) => `tick ${f.tick} failed while replaying (${f.cause !== '' ? f.cause : f.code})`,
  diff_run_failed: (f) => `${side(f)}tick ${f.tick} failed while diffing (${f.cause !== '' ? f.cause : f.code})`,
  keyframe_tick: (f) => f.world_tick !== undefined
    ? `tick ${f.tick} takes a keyframe, but the world has completed ${f.world_tick} ticks (a keyframe is the world's state after that tick: record the world as it runs)`
    : `a keyframe must be of the state after the last written frame (tick ${f.frames}), once per tick; got tick ${f.tick}`,
  keyframes_off: () => 'the recording was started without keyframes (keyframeEvery 0)',
  tick_out_of_range: (f) => `tick ${f.tick} is outside the recording, whose ticks are 0..${f.tick_count}`,
  keyframe_mismatch: (f) => f.cause === 'state'
    ? `the world's state after setup differs from the recording's keyframe of tick ${f.keyframe_tick} (set the world up exactly as the recording's)`
    : `the recording's keyframe of tick ${f.keyframe_tick} does not fit this world (${f.cause}: other components or systems than the recording's)`,
  keyframe_diverged: (f) =>
    `re-simulating tick ${f.tick} did not reach the recorded keyframe (checksum ${f.world_checksum}, recorded ${f.keyframe_checksum}): the systems are not the recording's, or not deterministic`,

  // --- deferred commands (docs/commands.md)
  command_outside_phase: (f) => `no command phase is open for ${q(f.op)} (commands record inside a system's run, an each callback or a defer, and apply at its end); make the call directly instead`,
  command_buffer_alloc_failed: (f) => `the command buffer could not grow to ${f.needed} bytes; nothing was recorded`,

  // --- snapshots (docs/snapshots.md)
  snapshot_buffer_too_small: (f) => `the snapshot needs ${f.needed} bytes and the buffer has ${f.given}; nothing was written`,
  inspect_request_too_large: (f) => `the inspector request is ${f.size} bytes, over the ${f.max} a request may have; send one request per line`,
  inspect_version: (f) => `the inspector request names protocol version ${f.got}; this core speaks version ${f.expected}`,
  inspect_unknown_request: (f) => `${q(f.request)} is no inspector request; ask summary, entities, entity, history or seek`,
  inspect_malformed: (f) => `the inspector request is malformed at ${q(f.part)}; see docs/inspector.md#protocol for the grammar`,
  inspect_page_too_large: (f) => `an entities page of ${f.limit} entities is over the ${f.max} one answer lists; page with the offset`,
  inspect_unknown_entity: (f) => `entity ${f.entity} is not live at the tick shown; pick a handle from an entities answer of that tick`,
  inspect_unknown_archetype: (f) => `archetype ${f.archetype} does not exist; use an id from the summary's archetypes`,
  inspect_tick_outside_history: (f) => `tick ${f.tick} is outside the history (${f.first}..${f.last}); seek within it`,
  inspect_seek_failed: (f) => `the history could not show tick ${f.tick}: its keyframe or a re-run tick failed`,
  inspector_disconnected: () => 'the connection to the native peer closed before it answered; make a new remoteSource',
  inspector_peer_refused: (f) => `the native peer refused the request (${q(f.peer_reason)}); open a scenario on it first`,
  snapshot_truncated: (f) => `the bytes end after ${f.given} of the snapshot's ${f.needed} bytes; pass the whole snapshot`,
  snapshot_trailing_bytes: (f) => `${f.given} bytes were given but the snapshot is ${f.needed} bytes long; pass exactly the snapshot's bytes`,
  snapshot_version: (f) => `the snapshot is format version ${f.version}; this build reads version ${f.supported}`,
  snapshot_setup_mismatch: (f) =>
    `the snapshot was taken of a world set up differently (${f.what === 'identity' ? 'component names, field layouts or system names differ' : `${f.what}: this world has ${f.expected}, the snapshot ${f.given}`}); restore into a world set up like the one it was taken of`,
  snapshot_corrupt: (f) => `these bytes are not an intact snapshot (the ${q(f.what)} check failed at byte ${f.offset}); the world is unchanged`,
  snapshot_alloc_failed: (f) => `the storage for archetype ${f.archetype_id} of the snapshot could not be allocated; the world is unchanged`,
  snapshot_commands_pending: (f) => `${f.pending} deferred command(s) are pending (a snapshot is taken between phases, when none are); take it after the system, each or defer that recorded them returns`,
  observe_inside_callback: () => 'observers are registered at setup, between ticks, not inside a system, an each, a defer or an observer',
  unknown_event: (f) => `the observer event ${f.event ?? f.got} is not one of onAdd, onSet, onRemove`,
  observer_invalid: () => 'the observer is not a function',
  component_absent: (f) => `markChanged named component ${f.component_id}, which the entity does not have`,
  observer_depth_exceeded: (f) => `observers caused events more than ${f.max_depth} levels deep (component ${f.component_id}), a cycle most likely; the event was dropped and the rest of the queue ran`,
  change_tracking_alloc_failed: (f) => `the change ticks of component ${f.component_id} could not be allocated`,
  restore_inside_callback: (f) => `restore cannot run inside ${f.inside === 'system' ? 'a running system' : f.inside === 'defer' ? 'a World.defer callback' : 'each'}; restore between ticks`,

  // --- rollback sessions (docs/rollback.md)
  rollback_option_invalid: (f) => `the session option ${q(f.option)} is ${f.value}, outside ${f.min}..${f.max}`,
  rollback_alloc_failed: (f) => `the rollback session's ring (${f.bytes} bytes) could not be allocated; nothing changed`,
  session_moved_from: () => 'the rollback session was moved from and drives no world',
  player_invalid: (f) => `player ${f.player} is not a remote player of this session (players 0..${Number(f.players) - 1}, the local one is ${f.local}); the local input goes to setLocalInput`,
  input_too_large: (f) => `player ${f.player}'s input is ${f.size} bytes, over the session's maxInputBytes (${f.max})`,
  input_too_early: (f) => `tick ${f.tick} is past the newest tick an input may be given for now (${f.newest}); keep inputs within the session's inputLead`,
  input_too_late: (f) => `the input for tick ${f.tick} arrived too late: the session can roll back to tick ${f.oldest} at the earliest, so the ticks from ${f.tick} on can no longer be confirmed (a deeper ring or maxPredictionTicks avoids it)`,
  input_conflict: (f) => `player ${f.player}'s input for tick ${f.tick}${f.confirmed === 'true' ? ' (a confirmed tick)' : ''} was received before with other bytes; a received input never changes`,
  local_input_passed: (f) => `tick ${f.tick} has already run (the session is at tick ${f.current}); give the local input before the advance that runs its tick`,
  local_input_missing: (f) => `the local input of tick ${f.tick} has not been given; call setLocalInput(${f.tick}, bytes) before advance()`,
  prediction_limit: (f) => `advance() would predict more than ${f.limit} ticks past tick ${f.confirmed}, the last one every player has given (the session is at ${f.current}); wait for the late inputs`,
  input_inside_advance: (f) => `${f.call} cannot run inside advance() (from a combine function, a hook or a system); give inputs between advances`,
  hash_unavailable: (f) => `tick ${f.tick} has no confirmed hash: confirmed ticks run to ${f.confirmed} and the history keeps them from ${f.oldest}`,
  combined_input_too_large: (f) => `the combined input is ${f.size} bytes, over the session's maxCombinedBytes (${f.max}); the advance was undone`,
  combine_failed: (f) => `the combine function failed for tick ${f.tick}; the advance was undone`,

  // --- relations (docs/relations.md)
  relation_not_registered: (f) => `component ${f.component_id} is not a relation; register it with registerRelation at setup`,
  relation_target_stale: (f) => `Entity(${f.target_id}, ${f.target_generation}) is not a live entity of this world, so entity ${f.entity_id} cannot relate to it`,
  relation_self: (f) => `entity ${f.entity_id} cannot be its own target`,
  relation_cycle: (f) => `Entity(${f.target_id}, ${f.target_generation}) reaches entity ${f.entity_id} through the same relation: the link would make a cycle`,
  relation_walk_mutation: (f) => `a relation ${f.operation} inside a sourcesOf / eachCascade walk would rewrite the lists being walked; record it as a command (it applies after the walk)`,
  relation_register_inside_callback: () => 'relations are registered at setup, not while a system, an each, a defer or a walk runs',
  relation_options_invalid: (f) => `the relation option ${f.option} is invalid (a relation is exclusive: one target per entity)`,
  relation_budget: (f) => `the world has ${f.max} relations, the most it may have`,
  relation_alloc_failed: (f) => `the reverse index of relation component ${f.component_id} (8 bytes per entity slot) could not be allocated`,
  relation_invariant_broken: (f) => `relation component ${f.component_id} of entity ${f.entity_id} breaks the relation rules (${f.what}): a target was written around add`,

  // --- the desync exchange across peers (docs/desync.md#across-peers)
  desync_message_malformed: (f) => `the desync message of ${f.size} bytes (kind ${f.kind}) is malformed: its ${f.what} is wrong`,
  desync_message_too_large: (f) => `the desync message of ${f.size} bytes is larger than the ${f.max} a desync message can be`,
  desync_message_unknown_kind: (f) => `the desync message kind ${f.kind} is not one of 1..7`,
  desync_answer_unexpected: (f) => `an answer (kind ${f.kind}) for tick ${f.tick} that this peer did not ask for`,
  desync_remote_refused: (f) => `the remote peer refused a request of tick ${f.tick}: ${f.reason}`,
  desync_tick_unavailable: (f) => `tick ${f.tick} cannot be pinned: it is not confirmed (confirmed ${f.confirmed}) or its state left the snapshot ring (oldest ${f.oldest})`,
  desync_already_pinned: (f) => `this peer investigates tick ${f.pinned}; tick ${f.tick} is refused`,
  desync_pin_mismatch: (f) => `tick ${f.tick} run again gave checksum ${f.got}, not the confirmed ${f.expected}: a system is not deterministic on this peer`,

  // --- prefabs (docs/prefabs.md)
  prefab_not_a_prefab: (f) => `Entity(${f.entity_id}, ${f.generation}) is not a prefab (it does not carry the Prefab tag); mark the template with createPrefab or makePrefab`,
  prefab_override_invalid: (f) => `the override of component ${f.component_id} is refused (${f.why}): override only the prefab's own components, not a relation or the Prefab tag; set the rest on the instance afterwards`,

  // --- queries run at run time (docs/query.md)
  query_invalid: (f) => f.reason === 'cascade_filtered'
    ? `a query with change filters (term ${f.term}) cannot walk in hierarchy order (eachCascade); walk it with each, or declare one without the filters for the cascade`
    : `the query is malformed (${f.reason}, term ${f.term})`,

  // --- scenarios (docs/scenarios.md)
  scenario_unknown: (f) => `no scenario is named ${q(f.scenario)}`,
  scenario_ticks_invalid: (f) => `${f.ticks} ticks is above the ${f.max_ticks} a scenario run may take`,
  scenario_not_a_run: () => 'this world is not a scenario run',
  scenario_no_player_input: (f) => `the scenario ${q(f.scenario)} has no per-player input generator (the 'input' scenario has one)`,
};

/**
 * The plain-words sentence of the core failure `reason` with `fields`
 * ("systems 'A' and 'B' both write 'Position'; only one system may write a
 * component"). A reason this table lacks reads as the reason and its fields.
 */
export function messageFor(reason: string, fields: Fields): string {
  const m = MESSAGES[reason];
  if (m !== undefined) return m(fields);
  const list = Object.entries(fields).map(([k, v]) => `${k}=${v}`).join(', ');
  return list === '' ? reason : `${reason} (${list})`;
}

/** @internal Every reason the table knows (docs and tests check they are documented). */
export function knownCoreReasons(): string[] {
  return Object.keys(MESSAGES);
}
