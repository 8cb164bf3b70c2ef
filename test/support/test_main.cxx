#define BOOST_TEST_MODULE agent_run
#include <boost/test/unit_test.hpp>
