/* <iomanip.h> of pre-standard C++ (see iostream.h). */
#include <iomanip>
#include <iostream>
using namespace std;
