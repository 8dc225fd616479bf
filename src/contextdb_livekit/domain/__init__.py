"""The service-visit domain: what a fork rewrites. Its actions and tools (registered in
`registry`), caller fact kinds and their extraction, reply words, the prompt, and the booking
system client (`calendar`). Everything outside this package is domain-free."""
