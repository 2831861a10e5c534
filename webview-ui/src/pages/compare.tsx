// A race's compare tab (an editor tab): its own bundle.
import { CompareApp } from "../CompareApp";
import { embedded, mount } from "./mount";

mount(<CompareApp raceId={embedded("raceId")} />);
