// The README's library example, built against the installed package by CI.
#include <lockstep/lockstep.hpp>

#include <iostream>

int main() {
  lockstep::Context ctx;  // LOCKSTEP_DEVICE, else the first GPU, else the first device
  std::cout << "consumer: device " << ctx.info().name << "\n";
  return 0;
}
