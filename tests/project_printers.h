#pragma once
// QCOMPARE for the project enums, printing "labeled" rather than a number on failure.

#include "project/types.h"

#include <QtTest>
#include <string>

#define OSPREY_COMPARE_ENUM(actual, expected)                                                                \
    QCOMPARE(std::string(osprey::project::toString(actual)), std::string(osprey::project::toString(expected)))
