/* Does not compile. */
int main(void) { return undeclared_variable; }
