from dotdbg.entry import main

raise SystemExit(main())
