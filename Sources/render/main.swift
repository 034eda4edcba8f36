import RenderCommand
import Foundation
exit(RenderCommand.main())
