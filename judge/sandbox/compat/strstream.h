/* <strstream.h> of pre-standard C++ (see iostream.h). */
#include <strstream>
#include <iostream>
using namespace std;
