// laige/sim.h - the umbrella header: everything laige-sim offers.
//
//   #include <laige/sim.h>
//   auto world = laige::World::create(laige::World::Options{.capacity = 2000}).takeValue();
#pragma once

#include "laige/assert.h"
#include "laige/entity.h"
#include "laige/errors.h"
#include "laige/fpx16_16.h"
#include "laige/logging.h"
#include "laige/prng.h"
#include "laige/result.h"
#include "laige/sim_math.h"
#include "laige/version.h"
#include "laige/world.h"
