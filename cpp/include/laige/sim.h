// laige/sim.h - the umbrella header: everything laige-sim offers.
//
//   #include <laige/sim.h>
//   auto world = laige::World::create(laige::World::Options{.capacity = 2000}).takeValue();
#pragma once

#include "laige/alloc_watch.h"
#include "laige/assert.h"
#include "laige/determinism.h"
#include "laige/entity.h"
#include "laige/errors.h"
#include "laige/fpx16_16.h"
#include "laige/game_loop.h"
#include "laige/histogram.h"
#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/replay.h"
#include "laige/replay_diff.h"
#include "laige/replay_text.h"
#include "laige/result.h"
#include "laige/scheduler.h"
#include "laige/sim_math.h"
#include "laige/state_hash.h"
#include "laige/system.h"
#include "laige/system_timing.h"
#include "laige/version.h"
#include "laige/world.h"
