#include "aptus/acquire/verify.hpp"
