"""What the pool and a worker say to each other over the worker's stdin and stdout: frames of
an 8-byte big-endian length and a pickle.

To the worker: (function, args). From it: ("ready", pid, seconds it took to boot) once, then
for each task ("ok", value) or ("error", type name, message, traceback text).
"""
import pickle
import struct

HEADER = struct.Struct("!Q")


def frame(message):
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def unframe(body):
    return pickle.loads(body)
