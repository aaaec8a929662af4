__thread int gd_var = 42;
__attribute__((tls_model("initial-exec"))) __thread int ie_var = 77;

int bump_gd(void)
{
	return gd_var++;
}

int bump_ie(void)
{
	return ie_var++;
}
