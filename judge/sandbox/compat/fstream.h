/* <fstream.h> of pre-standard C++ (see iostream.h). */
#include <fstream>
#include <iostream>
using namespace std;
