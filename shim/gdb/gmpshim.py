# gdb support for programs running under gmpshim: lists the Gs (the
# program's threads, which gdb's "info threads" cannot see: it shows only
# the Ms, the OS threads that run them) and unwinds a G that is not running
# from the context it saved when it switched out.
#
#   (gdb) source /path/to/gmpshim/shim/gdb/gmpshim.py
#   (gdb) info gmp-threads
#   (gdb) gmp-thread 3 bt
#
# Works on a live process and on a core file: it reads memory only.  It
# needs libgmpshim.so's debug information (the default debugoptimized
# build has it).
#
# A parked G's saved context is the frame gmp_swap pushed
# (shim/arch/<cpu>/switch.S).  x86_64: from the saved stack pointer up,
# mxcsr and x87 control word (8 bytes), r15, r14, r13, r12, rbx, rbp, then
# the return address.  aarch64: x19-x28, x29, x30 (the return address),
# d8-d15, FPCR, 176 bytes in all.  To unwind from it, a Python unwinder takes over the innermost
# frame of the selected thread for the duration of the command and
# reports the G's registers as that frame's caller; frames from level 1 on
# are then the G's, unwound by gdb's usual DWARF machinery.  No register
# is written, which is why this works on a core file too.

import struct

import gdb
from gdb.unwinder import Unwinder, register_unwinder


class FrameId(object):
    # gdb.unwinder.FrameId appeared in gdb 14; any object with sp and pc
    # attributes serves (gdb 13 in Debian 12).
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc

G_STATUS = {0: "idle", 1: "runnable", 2: "running", 3: "syscall", 4: "waiting", 5: "dead"}


def _aarch64():
    return gdb.selected_inferior().architecture().name().startswith("aarch64")


def _sp_pc():
    """The names gdb gives the stack pointer and the pc."""
    return ("sp", "pc") if _aarch64() else ("rsp", "rip")


def _registry():
    """registry.c's table: a struct regtab pointer, NULL before the first G."""
    for sym in gdb.lookup_static_symbols("table"):
        if sym.symtab and sym.symtab.filename.endswith("registry.c"):
            return sym.value()
    raise gdb.GdbError("gmpshim: no registry (is libgmpshim.so loaded, with debug info?)")


def _wait_name(v):
    # enum waitreason WAIT_MUTEX -> "mutex", as the shim's dump names them
    # (gmp_waitreason_string) when the table is readable.
    try:
        fn = gdb.lookup_static_symbol("wait_names")
        if fn is not None:
            s = fn.value()[int(v)]
            if s:
                return s.string()
    except (gdb.error, IndexError, RuntimeError):
        pass
    return str(v).replace("WAIT_", "").lower()


def all_gs():
    """Every live G, sorted by id."""
    table = _registry()
    gptr = gdb.lookup_type("struct g").pointer()
    inf = gdb.selected_inferior()
    gs = []
    if int(table) == 0:
        return gs
    nb = int(table["nb"])
    raw = bytes(inf.read_memory(int(table["b"].address), nb * 8))
    for (addr,) in struct.iter_unpack("<Q", raw):
        seen = 0
        while addr and seen < 1 << 20:
            g = gdb.Value(addr).cast(gptr)
            gs.append(g)
            addr = int(g["regnext"])
            seen += 1
    gs = [g for g in gs if int(g["status"]) != 5]
    gs.sort(key=lambda g: int(g["goid"]))
    return gs


def find_g(goid):
    for g in all_gs():
        if int(g["goid"]) == goid:
            return g
    raise gdb.GdbError("gmpshim: no thread %d" % goid)


def _gdb_thread_for_tid(tid):
    for t in gdb.selected_inferior().threads():
        if t.ptid[1] == tid:
            return t
    return None


class InfoGmpThreads(gdb.Command):
    """List the program's threads (gmpshim Gs): id, status, wait reason, the M
running it (and its OS thread id), pthread_t and name.  "*" marks the G
running on the selected OS thread."""

    def __init__(self):
        super().__init__("info gmp-threads", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        cur = gdb.selected_thread()
        curtid = cur.ptid[1] if cur else 0
        print("  %-6s %-9s %-16s %-4s %-8s %-18s %s" % ("Id", "Status", "Wait", "M", "TID", "pthread_t", "Name"))
        for g in all_gs():
            st = int(g["status"])
            m = int(g["m"])
            mid, tid = "-", "-"
            if m and st in (2, 3):
                mid = str(int(g["m"]["id"]))
                tid = str(int(g["m"]["tid"]))
            wait = _wait_name(g["waitreason"]) if st == 4 else ""
            name = g["name"].string() if int(g["name"][0]) else ""
            if int(g["flags"]) & 1:
                name = (name + " (main)").strip()
            mark = "*" if tid != "-" and int(tid) == curtid else " "
            print("%s %-6d %-9s %-16s %-4s %-8s 0x%-16x %s" % (mark, int(g["goid"]), G_STATUS.get(st, "?"), wait,
                                                          mid, tid, int(g["tcb"]), name))


class ParkedGUnwinder(Unwinder):
    """Active only inside gmp-thread: makes the G's saved registers the
    caller of the innermost real frame of the selected thread, recognised
    by the thread's own sp and pc (inline frames never reach an
    unwinder)."""

    def __init__(self):
        super().__init__("gmpshim-parked-g")
        self.regs = None
        self.target = None

    def activate(self, regs):
        # The innermost frame's registers are the thread's own.
        f = gdb.newest_frame()
        spn, pcn = _sp_pc()
        self.target = (int(f.read_register(spn)), int(f.read_register(pcn)))
        self.regs = regs
        gdb.invalidate_cached_frames()

    def deactivate(self):
        self.regs = None
        self.target = None
        gdb.invalidate_cached_frames()

    def __call__(self, pending):
        if self.regs is None:
            return None
        spn, pcn = _sp_pc()
        sp = pending.read_register(spn)
        pc = pending.read_register(pcn)
        if (int(sp), int(pc)) != self.target:
            return None
        # gdb stops unwinding where a caller's frame lies below its
        # callee's on the stack ("previous frame inner to this frame"), and
        # the G's stack may lie anywhere relative to the M's.  A frame id at
        # the bottom of the address space for this frame keeps the G's
        # frames "outer" to it.
        info = pending.create_unwind_info(FrameId(gdb.Value(16).cast(sp.type), pc))
        for name, val in self.regs.items():
            t = pending.read_register(name).type
            info.add_saved_register(name, gdb.Value(val).cast(t))
        return info


def first_g_frame(regs):
    """The G's innermost frame: the first one whose stack pointer is the
    one it saved (inline frames share it, so the outermost-inlined one
    comes first)."""
    f = gdb.newest_frame()
    spn = _sp_pc()[0]
    while f is not None:
        if f.level() > 0 and int(f.read_register(spn)) == regs[spn]:
            return f
        f = f.older()
    raise gdb.GdbError("gmpshim: could not unwind into the saved context")


_unwinder = ParkedGUnwinder()
register_unwinder(None, _unwinder, replace=True)


def saved_regs(g):
    sp = int(g["sched_sp"])
    if _aarch64():
        raw = bytes(gdb.selected_inferior().read_memory(sp, 176))
        w = struct.unpack("<22Q", raw)
        regs = {"x%d" % (19 + i): w[i] for i in range(12)}
        regs.update({"pc": w[11], "sp": sp + 176})
        return regs
    raw = bytes(gdb.selected_inferior().read_memory(sp, 64))
    w = struct.unpack("<8Q", raw)
    return {"r15": w[1], "r14": w[2], "r13": w[3], "r12": w[4], "rbx": w[5], "rbp": w[6],
            "rip": w[7], "rsp": sp + 64}


def print_bt(frame, limit=64):
    i = 0
    while frame is not None and i < limit:
        name = frame.name() or "??"
        sal = frame.find_sal()
        where = ""
        if sal.symtab is not None:
            where = " at %s:%d" % (sal.symtab.filename, sal.line)
        else:
            lib = gdb.solib_name(frame.pc())
            if lib:
                where = " from %s" % lib
        print("#%-2d 0x%016x in %s ()%s" % (i, frame.pc(), name, where))
        frame = frame.older()
        i += 1


class GmpThread(gdb.Command):
    """gmp-thread ID|all CMD: run CMD ("bt", or any gdb command) in the context
of thread (G) ID, or of every thread.  A running G is shown on the OS thread (M) that runs it;
a parked or runnable G is unwound from the context it saved."""

    def __init__(self):
        super().__init__("gmp-thread", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        parts = arg.split(None, 1)
        if len(parts) < 2:
            raise gdb.GdbError("usage: gmp-thread ID|all CMD (e.g. gmp-thread 3 bt)")
        if parts[0] == "all":
            for g in all_gs():
                print("thread %d:" % int(g["goid"]))
                try:
                    self.run_in(g, parts[1])
                except gdb.GdbError as e:
                    print(str(e))
                print("")
            return
        self.run_in(find_g(int(parts[0], 0)), parts[1])

    def run_in(self, g, cmd):
        st = int(g["status"])
        if st in (2, 3) and int(g["m"]):
            t = _gdb_thread_for_tid(int(g["m"]["tid"]))
            if t is None:
                raise gdb.GdbError("gmpshim: thread %d runs on tid %d, which gdb does not list"
                                   % (int(g["goid"]), int(g["m"]["tid"])))
            old = gdb.selected_thread()
            t.switch()
            try:
                if cmd == "bt":
                    print_bt(gdb.newest_frame())
                else:
                    gdb.execute(cmd)
            finally:
                old.switch()
            return
        if int(g["sched_sp"]) == 0:
            raise gdb.GdbError("gmpshim: thread %d has no saved context" % int(g["goid"]))
        regs = saved_regs(g)
        _unwinder.activate(regs)
        try:
            top = first_g_frame(regs)
            if cmd == "bt":
                print_bt(top)
            else:
                top.select()
                gdb.execute(cmd)
        finally:
            _unwinder.deactivate()


InfoGmpThreads()
GmpThread()
