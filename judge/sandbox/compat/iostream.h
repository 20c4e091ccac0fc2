/* <iostream.h> of pre-standard C++, for old contest programs: the standard header, with its
   names in the global namespace as they were then. */
#include <iostream>
using namespace std;
