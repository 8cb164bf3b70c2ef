#include "app/agent_run_main.h"

int main(int argc, char** argv) { return agent_run::agent_run_main(argc, argv); }
