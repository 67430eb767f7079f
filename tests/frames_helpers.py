"""The WebSocket frames a browser sends (Streamlit's BackMsg), read by the tests that prove a
privacy claim on the wire: the private quiz, the progress check-in, the progress record."""

from __future__ import annotations

from streamlit.proto.BackMsg_pb2 import BackMsg


def back_message(frame: bytes | str) -> BackMsg:
    """A frame as the server reads it."""
    message = BackMsg()
    message.ParseFromString(frame if isinstance(frame, bytes) else frame.encode())
    return message


def normalized(frame: bytes | str) -> bytes:
    """A frame as sent, its widget states in order of their ids (the front end lists them in
    the order its widgets registered, which a busy machine can change: not what it sent),
    serialized deterministically: two frames that say the same thing are the same bytes."""
    message = back_message(frame)
    if message.WhichOneof("type") == "rerun_script":
        widgets = message.rerun_script.widget_states.widgets
        ordered = sorted(widgets, key=lambda widget: widget.id)
        copies = [type(widget)() for widget in ordered]
        for copy, widget in zip(copies, ordered, strict=True):
            copy.CopyFrom(widget)
        del widgets[:]
        widgets.extend(copies)
    return message.SerializeToString(deterministic=True)


def component_triggers(frames: list[bytes | str], key_part: str) -> list[str]:
    """The JSON trigger values that components whose widget id holds `key_part` sent, in
    order (a components-v2 component's `setTriggerValue`)."""
    sent = []
    for frame in frames:
        message = back_message(frame)
        if message.WhichOneof("type") != "rerun_script":
            continue
        for widget in message.rerun_script.widget_states.widgets:
            if key_part in widget.id and widget.WhichOneof("value") == "json_trigger_value":
                sent.append(widget.json_trigger_value)
    return sent
