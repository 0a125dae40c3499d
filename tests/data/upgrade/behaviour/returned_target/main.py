from targets import jetson
t = jetson()
print(t.arch, list(t.libs), t.host.kind.name)
