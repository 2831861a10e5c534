// One session's reader (an editor tab): its own bundle, with markdown-it.
import { SessionReaderApp } from "../SessionReaderApp";
import { embedded, mount } from "./mount";

mount(<SessionReaderApp sessionId={embedded("sessionId")} />);
